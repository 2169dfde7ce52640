import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{b as r}from"./chunks/chunk-C7GZHN52.js";import"./chunks/chunk-2CNCOOQZ.js";import"./chunks/chunk-ZQJFJULW.js";import"./chunks/chunk-5L5DGANN.js";import"./chunks/chunk-WO4FJF3I.js";import"./chunks/chunk-A4BIYCVZ.js";import"./chunks/chunk-2LLLDEQZ.js";await r();
