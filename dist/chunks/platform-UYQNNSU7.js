import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{sa as a,ta as b}from"./chunk-HFSIARAH.js";import"./chunk-2LLLDEQZ.js";export{b as KubernetesPlatform,a as placeModes};
