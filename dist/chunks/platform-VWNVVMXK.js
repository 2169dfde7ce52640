import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{b as a,c as b,d as c,e as d,f as e}from"./chunk-TADYCHKJ.js";import"./chunk-MBNELZOT.js";import"./chunk-2LLLDEQZ.js";export{e as KindPlatform,c as deleteKindCluster,d as inotifyAdvice,a as kindBinary,b as kindClusterExists};
