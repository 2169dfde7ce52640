import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{K as a,L as b}from"./chunk-MBNELZOT.js";import"./chunk-2LLLDEQZ.js";export{b as KubernetesPlatform,a as placeModes};
