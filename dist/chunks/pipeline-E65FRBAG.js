import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{ea as a,fa as b,ga as c}from"./chunk-UAMVEV7B.js";import"./chunk-WO4FJF3I.js";import"./chunk-A4BIYCVZ.js";import"./chunk-2LLLDEQZ.js";export{c as MESH_PERF_VERSION,a as newRunId,b as runPipeline};
