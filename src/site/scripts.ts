// The browser scripts a history store carries besides Chart.js: the run page's (src/browser/
// run-page.ts, with the run codecs, the view and report.html's renderer) and the dashboard's shard
// reader (src/browser/store-data.ts). scripts/build.mjs bundles them into dist (define
// __MESH_PERF_SITE_SCRIPTS__); under tsx and in tests they are bundled here, once per process,
// with the same esbuild settings (siteScriptBuildOptions). I/O layer.
import type { SiteScripts } from './pages.ts';

declare const __MESH_PERF_SITE_SCRIPTS__: string | undefined;

let cached: Promise<SiteScripts> | undefined;

export function loadSiteScripts(): Promise<SiteScripts> {
  cached ??= load();
  return cached;
}

/** The entry point of each bundle, relative to src/. */
export const SITE_SCRIPT_ENTRIES: Record<keyof SiteScripts, string> = {
  runPage: 'browser/run-page.ts',
  storeData: 'browser/store-data.ts',
};

/** esbuild options shared with scripts/build.mjs: one IIFE per page script, for current browsers. */
export const SITE_SCRIPT_BUILD = {
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: 'es2020',
  minify: true,
  legalComments: 'none',
  write: false,
  logLevel: 'warning',
} as const;

async function load(): Promise<SiteScripts> {
  if (typeof __MESH_PERF_SITE_SCRIPTS__ === 'string' && __MESH_PERF_SITE_SCRIPTS__.length > 0)
    return JSON.parse(__MESH_PERF_SITE_SCRIPTS__) as SiteScripts;
  // Not bundled: esbuild (a development dependency) is there to build them.
  const { build } = await import('esbuild');
  const out: Partial<SiteScripts> = {};
  for (const [name, entry] of Object.entries(SITE_SCRIPT_ENTRIES) as [keyof SiteScripts, string][]) {
    const result = await build({ ...SITE_SCRIPT_BUILD, entryPoints: [new URL(`../${entry}`, import.meta.url).pathname] });
    out[name] = result.outputFiles[0]!.text;
  }
  return out as SiteScripts;
}
