import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{b as r}from"./chunks/chunk-CPX664YS.js";import"./chunks/chunk-7RCD63UF.js";import"./chunks/chunk-4TXMAE2A.js";import"./chunks/chunk-5L5DGANN.js";import"./chunks/chunk-YGWUZ6PH.js";import"./chunks/chunk-LQ6EIOYX.js";import"./chunks/chunk-2LLLDEQZ.js";await r();
