import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{ta as a,ua as b,va as c}from"./chunk-3D54DRMR.js";import"./chunk-ITZOMH2A.js";import"./chunk-ZREFRFQA.js";import"./chunk-2LLLDEQZ.js";export{c as MESH_PERF_VERSION,a as newRunId,b as runPipeline};
