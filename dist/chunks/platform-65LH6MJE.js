import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{N as a,O as b}from"./chunk-PHQCI4SQ.js";import"./chunk-2LLLDEQZ.js";export{b as KubernetesPlatform,a as placeModes};
