import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{da as a,ea as b,fa as c}from"./chunk-4TXMAE2A.js";import"./chunk-YGWUZ6PH.js";import"./chunk-LQ6EIOYX.js";import"./chunk-2LLLDEQZ.js";export{c as MESH_PERF_VERSION,a as newRunId,b as runPipeline};
