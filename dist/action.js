import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{b as r}from"./chunks/chunk-SVSVVAJX.js";import"./chunks/chunk-O7BMYQ5N.js";import"./chunks/chunk-NKFQYEMX.js";import"./chunks/chunk-5L5DGANN.js";import"./chunks/chunk-IHFGC2ZI.js";import"./chunks/chunk-HUZZANPH.js";import"./chunks/chunk-2LLLDEQZ.js";await r();
