import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{b as r}from"./chunks/chunk-INJES4MP.js";import"./chunks/chunk-TZG4URPX.js";import"./chunks/chunk-MU2EJAC2.js";import"./chunks/chunk-5L5DGANN.js";import"./chunks/chunk-AV2TZOVW.js";import"./chunks/chunk-H47KCTNE.js";import"./chunks/chunk-2LLLDEQZ.js";await r();
