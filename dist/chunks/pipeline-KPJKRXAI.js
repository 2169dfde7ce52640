import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{ga as a,ha as b,ia as c}from"./chunk-UVBLW5DF.js";import"./chunk-G2K3RC2L.js";import"./chunk-PHQCI4SQ.js";import"./chunk-2LLLDEQZ.js";export{c as MESH_PERF_VERSION,a as newRunId,b as runPipeline};
