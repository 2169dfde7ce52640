import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{b as r}from"./chunks/chunk-A76DPNPN.js";import"./chunks/chunk-4MEUZMEK.js";import"./chunks/chunk-IRTR5SC7.js";import"./chunks/chunk-5Y3RZD43.js";import"./chunks/chunk-F5DIEXVP.js";import"./chunks/chunk-F3P3GEBO.js";import"./chunks/chunk-2LLLDEQZ.js";await r();
