import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{b as r}from"./chunks/chunk-XSMABAC7.js";import"./chunks/chunk-OOXM47GK.js";import"./chunks/chunk-S323M7S5.js";import"./chunks/chunk-5Y3RZD43.js";import"./chunks/chunk-7GRQK52D.js";import"./chunks/chunk-6H5XFWJT.js";import"./chunks/chunk-2LLLDEQZ.js";await r();
