import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{da as a,ea as b,fa as c}from"./chunk-Y2MWSNFE.js";import"./chunk-MPUEV23B.js";import"./chunk-BH2QIBQR.js";import"./chunk-2LLLDEQZ.js";export{c as MESH_PERF_VERSION,a as newRunId,b as runPipeline};
