import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{ab as a,bb as b,cb as c}from"./chunk-BEZVAQWV.js";import"./chunk-OO3SW624.js";import"./chunk-5RS2YETA.js";import"./chunk-2LLLDEQZ.js";export{c as MESH_PERF_VERSION,a as newRunId,b as runPipeline};
