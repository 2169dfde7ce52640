import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{b as r}from"./chunks/chunk-EWX2PTQN.js";import"./chunks/chunk-QBE3MUNL.js";import"./chunks/chunk-Y2MWSNFE.js";import"./chunks/chunk-5L5DGANN.js";import"./chunks/chunk-MPUEV23B.js";import"./chunks/chunk-BH2QIBQR.js";import"./chunks/chunk-2LLLDEQZ.js";await r();
