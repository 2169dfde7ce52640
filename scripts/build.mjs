// Builds everything generated that is committed: dist/ (esbuild bundles of the CLI, the action,
// its post step and the echo server, with the bundled packages' license notices in
// dist/THIRD-PARTY-LICENSES.txt), the JSON Schemas, and the generated reference in docs/ (configuration keys, action inputs).
// `node scripts/build.mjs --outdir DIR` writes into DIR instead (the staleness test uses it).
import { build } from 'esbuild';
import { mkdir, readFile, rm, writeFile, access } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outIndex = process.argv.indexOf('--outdir');
const outRoot = outIndex > 0 ? resolve(process.argv[outIndex + 1]) : root;
const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
const exists = (p) =>
  access(p).then(
    () => true,
    () => false,
  );

const entries = {
  cli: 'src/cli.ts',
  action: 'src/action.ts',
  post: 'src/post.ts',
  setup: 'src/setup-action.ts',
  comment: 'src/comment-action.ts',
  echo: 'src/echo/main.ts',
};
const entryPoints = {};
for (const [name, path] of Object.entries(entries)) if (await exists(join(root, path))) entryPoints[name] = join(root, path);

const dist = join(outRoot, 'dist');
await rm(dist, { recursive: true, force: true });
const built = await build({
  entryPoints,
  outdir: dist,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  // Notices are collected whole into THIRD-PARTY-LICENSES.txt below, not scattered comments.
  legalComments: 'none',
  metafile: true,
  chunkNames: 'chunks/[name]-[hash]',
  define: {
    __MESH_PERF_VERSION__: JSON.stringify(pkg.version),
    // Reports inline Chart.js so they open offline; the bundle has no node_modules to read it from.
    __MESH_PERF_CHARTJS__: JSON.stringify(await readFile(join(root, 'node_modules/chart.js/dist/chart.umd.min.js'), 'utf8')),
    // The browser scripts are .js files beside their renderers; the bundle carries their text.
    __MESH_PERF_REPORT_CLIENT__: JSON.stringify(await readFile(join(root, 'src/report/html/client.js'), 'utf8')),
    __MESH_PERF_DASHBOARD_CLIENT__: JSON.stringify(await readFile(join(root, 'src/site/dashboard/client.js'), 'utf8')),
  },
  // Some bundled CommonJS dependencies call require() for Node built-ins.
  banner: {
    js: "import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
  absWorkingDir: root,
});
await writeFile(join(dist, 'package.json'), '{ "type": "module" }\n');
// Chart.js is inlined into reports through `define`, so the metafile does not list it.
const { bundledPackageRoots, thirdPartyNotices } = await import(pathToFileURL(join(root, 'scripts/third-party-notices.mjs')).href);
await writeFile(
  join(dist, 'THIRD-PARTY-LICENSES.txt'),
  await thirdPartyNotices(root, bundledPackageRoots(built.metafile, ['node_modules/chart.js'])),
);

// JSON Schemas, generated from the zod schemas (run through tsx: they are TypeScript).
const { tsImport } = await import('tsx/esm/api');
const { z } = await import('zod');
const { toJsonSchema, CONFIG_SCHEMA_ID, CONFIG_SCHEMA_TITLE } = await import(pathToFileURL(join(root, 'scripts/json-schema.mjs')).href);
const { configSchema } = await tsImport(pathToFileURL(join(root, 'src/config/schema.ts')).href, import.meta.url);
const { resultsSchema } = await tsImport(pathToFileURL(join(root, 'src/results/schema.ts')).href, import.meta.url);
const schemaDir = join(outRoot, 'schema');
await mkdir(schemaDir, { recursive: true });
const configJsonSchema = toJsonSchema(z, configSchema, CONFIG_SCHEMA_ID, CONFIG_SCHEMA_TITLE);
await writeFile(join(schemaDir, 'mesh-perf.schema.json'), `${JSON.stringify(configJsonSchema, null, 2)}\n`);
await writeFile(
  join(schemaDir, 'results.schema.json'),
  `${JSON.stringify(toJsonSchema(z, resultsSchema, 'https://mesh-perf.dev/schema/results.schema.json', 'mesh-perf results.json'), null, 2)}\n`,
);

// The generated reference in docs/: every configuration key (from the JSON Schema above) and the
// inputs and outputs of the action, its sub-actions and the reusable workflows.
const { generatedDocs } = await import(pathToFileURL(join(root, 'scripts/docs-reference.mjs')).href);
await mkdir(join(outRoot, 'docs'), { recursive: true });
for (const [path, text] of Object.entries(generatedDocs(root, configJsonSchema))) await writeFile(join(outRoot, path), text);
