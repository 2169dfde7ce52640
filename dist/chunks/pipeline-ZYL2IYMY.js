import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{ga as a,ha as b,ia as c}from"./chunk-YVAHFHDS.js";import"./chunk-ER7DDJFK.js";import"./chunk-P4PC4OBY.js";import"./chunk-2LLLDEQZ.js";export{c as MESH_PERF_VERSION,a as newRunId,b as runPipeline};
