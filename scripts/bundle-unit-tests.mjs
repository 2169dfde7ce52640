// The unit tier runs its test files bundled by esbuild into plain JavaScript instead of through
// tsx, and several files to a process. What goes is per-process cost: tsx's loader transformed and
// resolved every imported module again in each of the ~90 processes (the whole unit tier took 118 s
// of CPU under tsx, 47 s bundled one file per process), and each process still started node's test
// runner and loaded the modules its file shares with the others (zod, the config schema, the
// Kubernetes client): 95 files in 95 processes took 53 s of CPU, in 4 processes 21 s.
// Files sharing a process run one after another (node:test runs a process's top-level tests in
// order), so a test that changes process-wide state (an environment variable, the working
// directory) restores it when it ends; test/support/cli.ts's withColumns does it for COLUMNS.
// A bundle lives elsewhere than its source, so every `import.meta.url`, `.dirname` and
// `.filename` in a test or in src is replaced by the source file's own value: fixtures, the k6
// scripts and the report's client.js are found where they are. Source maps are inline, so a
// failure's stack, and the file a test is reported under, point at the TypeScript source.
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Where bundles go: under node_modules so that their bare imports resolve to this project's packages. */
export const UNIT_BUNDLE_DIR = join('node_modules', '.cache', 'mesh-perf-unit-tests');

const PACKAGES = join('node_modules', '/');

const keepSourcePaths = {
  name: 'keep-source-paths',
  setup(b) {
    b.onLoad({ filter: /\.(ts|mts|mjs|js)$/ }, async (args) => {
      if (args.path.includes(PACKAGES)) return undefined;
      const text = await readFile(args.path, 'utf8');
      // A script's "am I the entry point?" check compares import.meta.url too: kept, it stays false.
      const loader = /\.m?ts$/.test(args.path) ? 'ts' : 'js';
      if (!text.includes('import.meta')) return { contents: text, loader };
      const contents = text
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll('import.meta.dirname', JSON.stringify(dirname(args.path)))
        .replaceAll('import.meta.filename', JSON.stringify(args.path));
      return { contents, loader };
    });
  },
};

/**
 * Bundles `files` (paths relative to `root`) and returns each bundle's path in the same order.
 * Packages stay external (imported from node_modules at run time), as they are under tsx.
 */
export async function bundleUnitTests(root, files) {
  // Imported here, not at the top: scripts/test.mjs loads this file before it installs npm
  // dependencies on a clean clone.
  const { build } = await import('esbuild');
  const outdir = join(root, UNIT_BUNDLE_DIR);
  await build({
    absWorkingDir: root,
    entryPoints: files,
    outdir,
    outbase: root,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    // Dynamic imports become chunks loaded when imported: a file that never asks for a Kubernetes
    // platform never loads @kubernetes/client-node (0.7 s of CPU per process), as in dist/.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    sourcemap: 'inline',
    logLevel: 'warning',
    plugins: [keepSourcePaths],
  });
  return files.map((f) => join(outdir, relative(root, resolve(root, f)).replace(/\.m?ts$/, '.js')));
}

/** A bundle's path back to its source file (for the slowest-tests report). */
export function sourceOfBundle(path) {
  const marker = `${UNIT_BUNDLE_DIR}/`;
  const at = path.indexOf(marker);
  return at < 0 ? path : path.slice(at + marker.length).replace(/\.js$/, '.ts');
}

/**
 * Writes `groups` entry files that each import their share of `bundles` (dealt in turn, so that
 * a directory's files spread over the processes) and returns their paths. A file that fails to
 * load becomes a failing test named after it; the group's other files still run.
 */
export async function groupBundles(root, bundles, groups) {
  const outdir = join(root, UNIT_BUNDLE_DIR);
  const shares = Array.from({ length: Math.min(groups, bundles.length) }, () => []);
  bundles.forEach((bundle, i) => shares[i % shares.length].push(bundle));
  return Promise.all(
    shares.map(async (share, i) => {
      const path = join(outdir, `group-${i + 1}-of-${shares.length}.mjs`);
      const lines = share.map((bundle) => {
        const url = JSON.stringify(pathToFileURL(bundle).href);
        const name = JSON.stringify(`loading ${sourceOfBundle(bundle)}`);
        return `try { await import(${url}); } catch (error) { test(${name}, () => { throw error; }); }`;
      });
      await writeFile(path, `import { test } from 'node:test';\n${lines.join('\n')}\n`);
      return path;
    }),
  );
}
