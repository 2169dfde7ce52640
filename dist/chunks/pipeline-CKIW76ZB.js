import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{La as a,Ma as b,Na as c}from"./chunk-A3GPO36R.js";import"./chunk-5GDFO7HF.js";import"./chunk-QBHFOGPW.js";import"./chunk-2LLLDEQZ.js";export{c as MESH_PERF_VERSION,a as newRunId,b as runPipeline};
