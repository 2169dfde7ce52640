import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{ta as a,ua as b,va as c}from"./chunk-RQCIFQ7F.js";import"./chunk-XC2JBMUW.js";import"./chunk-P3JCOCBO.js";import"./chunk-2LLLDEQZ.js";export{c as MESH_PERF_VERSION,a as newRunId,b as runPipeline};
