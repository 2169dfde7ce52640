import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{b as r}from"./chunks/chunk-JAWUSRTQ.js";import"./chunks/chunk-TJQMHUV2.js";import"./chunks/chunk-RDAXFTHA.js";import"./chunks/chunk-5L5DGANN.js";import"./chunks/chunk-JC6EX76G.js";import"./chunks/chunk-HFSIARAH.js";import"./chunks/chunk-2LLLDEQZ.js";await r();
