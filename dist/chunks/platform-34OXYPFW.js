import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{ra as a,sa as b}from"./chunk-H47KCTNE.js";import"./chunk-2LLLDEQZ.js";export{b as KubernetesPlatform,a as placeModes};
