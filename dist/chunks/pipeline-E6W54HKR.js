import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{ta as a,ua as b,va as c}from"./chunk-IRTR5SC7.js";import"./chunk-F5DIEXVP.js";import"./chunk-F3P3GEBO.js";import"./chunk-2LLLDEQZ.js";export{c as MESH_PERF_VERSION,a as newRunId,b as runPipeline};
