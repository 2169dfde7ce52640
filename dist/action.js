import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{b as r}from"./chunks/chunk-5GIGDZFE.js";import"./chunks/chunk-VW5XN5QI.js";import"./chunks/chunk-YVAHFHDS.js";import"./chunks/chunk-W6BM2KRN.js";import"./chunks/chunk-ER7DDJFK.js";import"./chunks/chunk-P4PC4OBY.js";import"./chunks/chunk-2LLLDEQZ.js";await r();
