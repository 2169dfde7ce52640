import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{R as a,S as b,T as c}from"./chunk-KVRPNBFU.js";import"./chunk-NQFEKBZY.js";import"./chunk-KKQTFZBF.js";import"./chunk-2LLLDEQZ.js";export{c as MESH_PERF_VERSION,a as newRunId,b as runPipeline};
