import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{b as r}from"./chunks/chunk-R4ZMZZGP.js";import"./chunks/chunk-CSECZHE5.js";import"./chunks/chunk-UVBLW5DF.js";import"./chunks/chunk-5L5DGANN.js";import"./chunks/chunk-G2K3RC2L.js";import"./chunks/chunk-PHQCI4SQ.js";import"./chunks/chunk-2LLLDEQZ.js";await r();
