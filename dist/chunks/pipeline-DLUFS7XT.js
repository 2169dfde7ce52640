import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{Ka as a,La as b,Ma as c}from"./chunk-6SVZSPZ2.js";import"./chunk-BSCFDX2H.js";import"./chunk-QBHFOGPW.js";import"./chunk-2LLLDEQZ.js";export{c as MESH_PERF_VERSION,a as newRunId,b as runPipeline};
