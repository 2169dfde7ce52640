import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{b as r}from"./chunks/chunk-UG5OOEIF.js";import"./chunks/chunk-UY5SDC76.js";import"./chunks/chunk-QOHWZEJG.js";import"./chunks/chunk-5L5DGANN.js";import"./chunks/chunk-DYKC2DR5.js";import"./chunks/chunk-3464OSO5.js";import"./chunks/chunk-2LLLDEQZ.js";await r();
