import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{b as r}from"./chunks/chunk-GSD6G27Z.js";import"./chunks/chunk-OP7G5LBK.js";import"./chunks/chunk-SMQNLPO7.js";import"./chunks/chunk-5Y3RZD43.js";import"./chunks/chunk-F5DIEXVP.js";import"./chunks/chunk-F3P3GEBO.js";import"./chunks/chunk-2LLLDEQZ.js";await r();
