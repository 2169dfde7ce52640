import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{ca as a,da as b}from"./chunk-A4BIYCVZ.js";import"./chunk-2LLLDEQZ.js";export{b as KubernetesPlatform,a as placeModes};
