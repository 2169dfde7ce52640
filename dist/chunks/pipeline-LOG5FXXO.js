import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{Ta as a,Ua as b,Va as c}from"./chunk-7QKZTOAA.js";import"./chunk-72KIC7IV.js";import"./chunk-QBHFOGPW.js";import"./chunk-2LLLDEQZ.js";export{c as MESH_PERF_VERSION,a as newRunId,b as runPipeline};
