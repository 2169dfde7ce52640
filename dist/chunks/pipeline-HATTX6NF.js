import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{T as a,U as b,V as c}from"./chunk-JN33MDNE.js";import"./chunk-TADYCHKJ.js";import"./chunk-MBNELZOT.js";import"./chunk-2LLLDEQZ.js";export{c as MESH_PERF_VERSION,a as newRunId,b as runPipeline};
