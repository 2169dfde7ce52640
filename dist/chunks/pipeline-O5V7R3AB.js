import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{T as a,U as b,V as c}from"./chunk-623R6MHZ.js";import"./chunk-XRPFO2YH.js";import"./chunk-NI4FYMII.js";import"./chunk-2LLLDEQZ.js";export{c as MESH_PERF_VERSION,a as newRunId,b as runPipeline};
