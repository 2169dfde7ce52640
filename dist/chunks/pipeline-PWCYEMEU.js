import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{R as a,S as b,T as c}from"./chunk-C3U7YRIT.js";import"./chunk-QJMXSES7.js";import"./chunk-SI44FWAK.js";import"./chunk-2LLLDEQZ.js";export{c as MESH_PERF_VERSION,a as newRunId,b as runPipeline};
