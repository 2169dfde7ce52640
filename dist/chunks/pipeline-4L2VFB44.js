import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{ta as a,ua as b,va as c}from"./chunk-S323M7S5.js";import"./chunk-7GRQK52D.js";import"./chunk-6H5XFWJT.js";import"./chunk-2LLLDEQZ.js";export{c as MESH_PERF_VERSION,a as newRunId,b as runPipeline};
