import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{ab as a,bb as b,cb as c}from"./chunk-ZHQIJDCT.js";import"./chunk-Q36JUEKB.js";import"./chunk-OO3SW624.js";import"./chunk-5RS2YETA.js";import"./chunk-2LLLDEQZ.js";export{c as MESH_PERF_VERSION,a as newRunId,b as runPipeline};
