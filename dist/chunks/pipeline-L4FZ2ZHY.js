import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{fa as a,ga as b,ha as c}from"./chunk-HEG52T6Y.js";import"./chunk-IY72HI5U.js";import"./chunk-4JZR5GQ4.js";import"./chunk-2LLLDEQZ.js";export{c as MESH_PERF_VERSION,a as newRunId,b as runPipeline};
