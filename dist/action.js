import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{b as r}from"./chunks/chunk-GYLXWUUD.js";import"./chunks/chunk-OG4W576F.js";import"./chunks/chunk-3D54DRMR.js";import"./chunks/chunk-5L5DGANN.js";import"./chunks/chunk-ITZOMH2A.js";import"./chunks/chunk-ZREFRFQA.js";import"./chunks/chunk-2LLLDEQZ.js";await r();
