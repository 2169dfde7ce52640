import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{T as a,U as b,V as c}from"./chunk-BDGDWQH7.js";import"./chunk-UL3MOUA5.js";import"./chunk-ZJS6ISXE.js";import"./chunk-2LLLDEQZ.js";export{c as MESH_PERF_VERSION,a as newRunId,b as runPipeline};
