import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{J as a,K as b}from"./chunk-SI44FWAK.js";import"./chunk-2LLLDEQZ.js";export{b as KubernetesPlatform,a as placeModes};
