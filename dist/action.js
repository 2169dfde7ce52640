import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{b as r}from"./chunks/chunk-XGSAL324.js";import"./chunks/chunk-YLBP3YNM.js";import"./chunks/chunk-HEG52T6Y.js";import"./chunks/chunk-5L5DGANN.js";import"./chunks/chunk-IY72HI5U.js";import"./chunks/chunk-4JZR5GQ4.js";import"./chunks/chunk-2LLLDEQZ.js";await r();
