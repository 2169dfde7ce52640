// The unit tier runs each test file bundled by esbuild into one plain JavaScript file instead of
// through tsx. Each file still runs in its own process (node --test's isolation is unchanged);
// what goes is the per-process cost of tsx's loader, which transformed and resolved every
// imported module again in each of the ~90 processes: measured on this 2-core machine, the
// whole unit tier took 118 s of CPU under tsx and 47 s bundled (one esbuild call for all files:
// about 2 s).
// A bundle lives elsewhere than its source, so every `import.meta.url`, `.dirname` and
// `.filename` in a test or in src is replaced by the source file's own value: fixtures, the k6
// scripts and the report's client.js are found where they are. Source maps are inline, so a
// failure's stack points at the TypeScript line.
import { readFile } from 'node:fs/promises';
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
