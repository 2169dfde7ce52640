import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{Pa as a,Qa as b,Ra as c}from"./chunk-NTRGMSQ6.js";import"./chunk-QHJ5UP3T.js";import"./chunk-QBHFOGPW.js";import"./chunk-2LLLDEQZ.js";export{c as MESH_PERF_VERSION,a as newRunId,b as runPipeline};
