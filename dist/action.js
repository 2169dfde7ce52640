import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{b as r}from"./chunks/chunk-QGT4PZ5Y.js";import"./chunks/chunk-EF63DG4V.js";import"./chunks/chunk-V57JM64S.js";import"./chunks/chunk-5L5DGANN.js";import"./chunks/chunk-WO4FJF3I.js";import"./chunks/chunk-A4BIYCVZ.js";import"./chunks/chunk-2LLLDEQZ.js";await r();
