import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{T as a,U as b,V as c}from"./chunk-W66EZO4Z.js";import"./chunk-4JTXZAWJ.js";import"./chunk-R3WREAMN.js";import"./chunk-2LLLDEQZ.js";export{c as MESH_PERF_VERSION,a as newRunId,b as runPipeline};
