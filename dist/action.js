import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{b as r}from"./chunks/chunk-772HU3BH.js";import"./chunks/chunk-4XK6275D.js";import"./chunks/chunk-RQCIFQ7F.js";import"./chunks/chunk-5L5DGANN.js";import"./chunks/chunk-XC2JBMUW.js";import"./chunks/chunk-P3JCOCBO.js";import"./chunks/chunk-2LLLDEQZ.js";await r();
