import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{bb as a,cb as b,db as c}from"./chunk-IO2BF6WF.js";import"./chunk-Q36JUEKB.js";import"./chunk-OPM3RSBM.js";import"./chunk-5RS2YETA.js";import"./chunk-2LLLDEQZ.js";export{c as MESH_PERF_VERSION,a as newRunId,b as runPipeline};
