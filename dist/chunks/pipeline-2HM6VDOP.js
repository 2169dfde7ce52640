import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{R as a,S as b,T as c}from"./chunk-W2QC7I5E.js";import"./chunk-WOVO5TXM.js";import"./chunk-I5LSV6FA.js";import"./chunk-2LLLDEQZ.js";export{c as MESH_PERF_VERSION,a as newRunId,b as runPipeline};
