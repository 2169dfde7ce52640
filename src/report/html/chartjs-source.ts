// Reads the Chart.js UMD build that reports and the dashboard embed. The bundled CLI/action has no
// node_modules at run time, so scripts/build.mjs injects the source with esbuild's `define`
// (__MESH_PERF_CHARTJS__); under tsx and in tests it is read from node_modules. I/O layer: the
// renderers themselves only receive the text.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { EnvironmentError } from '../../util/errors.ts';

declare const __MESH_PERF_CHARTJS__: string | undefined;

let cached: Promise<string> | undefined;

export function loadChartJsSource(): Promise<string> {
  cached ??= load();
  return cached;
}

async function load(): Promise<string> {
  if (typeof __MESH_PERF_CHARTJS__ === 'string' && __MESH_PERF_CHARTJS__.length > 0) return __MESH_PERF_CHARTJS__;
  let path: string;
  try {
    // chart.js exports only its entry points; the UMD build sits next to the CommonJS one.
    path = join(dirname(createRequire(import.meta.url).resolve('chart.js')), 'chart.umd.min.js');
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new EnvironmentError(
      `cannot read the Chart.js library the HTML report embeds (${(error as Error).message}); reinstall dependencies (npm ci) or use the bundled dist/cli.js`,
    );
  }
}
