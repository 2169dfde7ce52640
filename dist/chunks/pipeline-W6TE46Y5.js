import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{fa as a,ga as b,ha as c}from"./chunk-ZQJFJULW.js";import"./chunk-WO4FJF3I.js";import"./chunk-A4BIYCVZ.js";import"./chunk-2LLLDEQZ.js";export{c as MESH_PERF_VERSION,a as newRunId,b as runPipeline};
