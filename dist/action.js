import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{b as r}from"./chunks/chunk-WBLOIJN3.js";import"./chunks/chunk-RKKEJRR2.js";import"./chunks/chunk-F7ZIMWRF.js";import"./chunks/chunk-5L5DGANN.js";import"./chunks/chunk-ITZOMH2A.js";import"./chunks/chunk-ZREFRFQA.js";import"./chunks/chunk-2LLLDEQZ.js";await r();
