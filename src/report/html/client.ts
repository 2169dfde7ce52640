// The report's browser script, from client.js: inlined by scripts/build.mjs into the bundle
// (__MESH_PERF_REPORT_CLIENT__, as Chart.js is), read beside this file under tsx and in tests.
import { readFileSync } from 'node:fs';
import { inlineScript } from './browser-script.ts';

declare const __MESH_PERF_REPORT_CLIENT__: string | undefined;

export const REPORT_CLIENT_JS = inlineScript(
  typeof __MESH_PERF_REPORT_CLIENT__ === 'string'
    ? __MESH_PERF_REPORT_CLIENT__
    : readFileSync(new URL('./client.js', import.meta.url), 'utf8'),
);
