import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{Ja as a,Ka as b,La as c}from"./chunk-FQZFRTKH.js";import"./chunk-5GDFO7HF.js";import"./chunk-QBHFOGPW.js";import"./chunk-2LLLDEQZ.js";export{c as MESH_PERF_VERSION,a as newRunId,b as runPipeline};
