import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{ca as a,da as b}from"./chunk-4JZR5GQ4.js";import"./chunk-2LLLDEQZ.js";export{b as KubernetesPlatform,a as placeModes};
