import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{T as a,U as b,V as c}from"./chunk-OAOGML4I.js";import"./chunk-WOVO5TXM.js";import"./chunk-I5LSV6FA.js";import"./chunk-2LLLDEQZ.js";export{c as MESH_PERF_VERSION,a as newRunId,b as runPipeline};
