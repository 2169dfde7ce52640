import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{ab as a,bb as b,cb as c}from"./chunk-FDHHV7DK.js";import"./chunk-P3LZWSTB.js";import"./chunk-5RS2YETA.js";import"./chunk-2LLLDEQZ.js";export{c as MESH_PERF_VERSION,a as newRunId,b as runPipeline};
