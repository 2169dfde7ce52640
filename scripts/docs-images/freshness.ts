// What the pictures in docs/images/ were drawn from, as a hash the pictures' manifest records
// (docs/images/sources.json) and test/docs/images-fresh.test.ts recomputes: a picture is stale
// when a renderer it shows changed since it was drawn.
//
// The sources are found, not listed: every file the picture pages import (esbuild's module graph
// of scripts/docs-images/pages.ts, and of src/site/pages.ts for the dashboard that `mesh-perf
// publish` writes) that lies under src/report/, src/site/ or src/github/ (the renderers), the
// browser scripts and stylesheets beside them (client.js, read as text), every file of
// scripts/docs-images/, the synthetic-run builder (test/support/results-fixture.ts), the
// recorded inputs under docs/images/inputs/, and the versions of the packages that draw
// (Chart.js, marked, GitHub's markdown CSS). Analysis, config and history code are left out on purpose: a change there that
// alters a picture shows in the renderers' inputs only when someone records new inputs, and
// keeping them out keeps the rule cheap for everyone else (`npm run docs:images` redraws).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { buildSync } from 'esbuild';

const ROOT = join(import.meta.dirname, '..', '..');
const GRAPH_ENTRIES = ['scripts/docs-images/pages.ts', 'src/site/pages.ts'];
const RENDERERS = ['src/report/', 'src/site/', 'src/github/', 'scripts/docs-images/'];
const ALSO = ['test/support/results-fixture.ts'];
const PACKAGES = ['chart.js', 'marked', 'github-markdown-css'];
export const REGENERATE = 'npm run docs:images';

/** Each source file (path relative to the repository) and package version the pictures are drawn from, with its content hash. */
export function pictureSources(read: (path: string) => string = (path) => readFileSync(join(ROOT, path), 'utf8')): Record<string, string> {
  const graph = buildSync({
    entryPoints: GRAPH_ENTRIES.map((e) => join(ROOT, e)),
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    outdir: join(ROOT, '.docs-images-graph'),
    packages: 'external',
    logLevel: 'silent',
  });
  const graphFiles = Object.keys(graph.metafile.inputs)
    .map((p) => relative(ROOT, join(ROOT, p)).split('\\').join('/'))
    .filter((p) => RENDERERS.some((dir) => p.startsWith(dir)));
  // Browser scripts and stylesheets beside a renderer are read as text (client.ts reads client.js), not imported.
  const besides = [...new Set(graphFiles.map((f) => dirname(f)))].flatMap((dir) =>
    readdirSync(join(ROOT, dir))
      .filter((f) => /\.(js|css)$/.test(f))
      .map((f) => `${dir}/${f}`),
  );
  const files = new Set([
    ...graphFiles,
    ...besides,
    ...ALSO,
    ...readdirSync(join(ROOT, 'scripts/docs-images')).map((f) => `scripts/docs-images/${f}`),
    ...readdirSync(join(ROOT, 'docs/images/inputs')).map((f) => `docs/images/inputs/${f}`),
  ]);
  const sources: Record<string, string> = {};
  for (const file of [...files].sort()) sources[file] = sha256(read(file)).slice(0, 16);
  for (const name of PACKAGES) {
    const { version } = JSON.parse(read(`node_modules/${name}/package.json`)) as { version: string };
    sources[`package ${name}`] = version;
  }
  return sources;
}

/** One hash of all sources. */
export function sourcesHash(sources: Record<string, string>): string {
  return sha256(
    Object.entries(sources)
      .map(([k, v]) => `${k} ${v}\n`)
      .join(''),
  );
}

/** The sources whose hash differs between two recordings, added or removed ones included. */
export function changedSources(recorded: Record<string, string>, current: Record<string, string>): string[] {
  const keys = new Set([...Object.keys(recorded), ...Object.keys(current)]);
  return [...keys].filter((k) => recorded[k] !== current[k]).sort();
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
