// What the npm package `mesh-perf` must be before it is published (.github/workflows/release.yml
// runs this on the release tag; test/build/package.test.ts runs it on every change):
//   - the files the CLI reads at run time (its bundle, the echo server, the k6 library, the
//     Kubernetes manifests, the JSON Schema `init` points editors at) and none of the sources,
//     tests, benchmarks, scripts or docs;
//   - `mesh-perf` on PATH from dist/cli.js, which starts with a node shebang;
//   - no runtime dependencies: dist/ bundles every package it uses (esbuild), so an install pulls
//     nothing more from the registry (and works offline from the tarball alone);
//   - a repository URL, which npm's provenance statement is checked against;
//   - on a release tag, the tag is the package's version (vX.Y.Z), and a real publish only from one.
// `node scripts/check-package.mjs [--tag vX.Y.Z] [--dry-run]`: exit 0, or 1 with every problem listed.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Files the installed CLI cannot run without. */
export const REQUIRED_FILES = [
  'package.json',
  'README.md',
  'LICENSE',
  'dist/cli.js',
  'dist/echo.js',
  'dist/package.json',
  'dist/THIRD-PARTY-LICENSES.txt',
  'k6/mesh-perf-lib.js',
  'k6/http.js',
  'k6/grpc.js',
  'manifests/echo.yaml',
  'manifests/k6-client.yaml',
  'schema/mesh-perf.schema.json',
  'schema/results.schema.json',
];

/** Folders of the repository that are for its developers, not for the CLI's users. */
export const FORBIDDEN_PREFIXES = ['src/', 'test/', 'bench/', 'scripts/', 'docs/', '.github/', 'workflows/', 'types/', 'node_modules/'];

/**
 * Every problem with a package: `files` is what `npm pack` would put in it, `pkg` its package.json,
 * `cli` the text of dist/cli.js.
 */
export function packageProblems({ files, pkg, cli, tag, dryRun }) {
  const problems = [];
  const have = new Set(files);
  for (const file of REQUIRED_FILES) if (!have.has(file)) problems.push(`${file} is not in the package (package.json "files")`);
  for (const file of files) {
    const prefix = FORBIDDEN_PREFIXES.find((p) => file.startsWith(p));
    if (prefix) problems.push(`${file} is in the package: nothing under ${prefix} belongs there`);
  }
  if (pkg.name !== 'mesh-perf') problems.push(`package.json name is ${JSON.stringify(pkg.name)}, expected "mesh-perf" (npx mesh-perf)`);
  if (pkg.bin?.['mesh-perf'] !== 'dist/cli.js')
    problems.push(`package.json bin["mesh-perf"] is ${JSON.stringify(pkg.bin?.['mesh-perf'])}, expected "dist/cli.js"`);
  if (!cli.startsWith('#!/usr/bin/env node\n')) problems.push('dist/cli.js does not start with "#!/usr/bin/env node"');
  const runtime = Object.keys(pkg.dependencies ?? {});
  if (runtime.length > 0)
    problems.push(`package.json has runtime dependencies (${runtime.join(', ')}); dist/ bundles them, so they belong in devDependencies`);
  if (!/^git\+https:\/\/github\.com\/[^/]+\/mesh-perf-action\.git$/.test(pkg.repository?.url ?? ''))
    problems.push(
      `package.json repository.url is ${JSON.stringify(pkg.repository?.url)}, expected git+https://github.com/<owner>/mesh-perf-action.git (npm checks provenance against it)`,
    );
  if (tag) {
    if (tag !== `v${pkg.version}`) problems.push(`the tag ${tag} is not the package's version v${pkg.version}`);
  } else if (!dryRun) {
    problems.push('a real publish runs only on a release tag vX.Y.Z (scripts/release.mjs pushes one); without one use --dry-run');
  }
  return problems;
}

/** The files `npm pack` would put in the package of the repository at `root`. */
export function packedFiles(root) {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' });
  return JSON.parse(out)[0].files.map((f) => f.path);
}

function main(argv) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const tagAt = argv.indexOf('--tag');
  const tag = tagAt >= 0 ? argv[tagAt + 1] || undefined : undefined;
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const problems = packageProblems({
    files: packedFiles(root),
    pkg,
    cli: readFileSync(join(root, 'dist/cli.js'), 'utf8'),
    tag,
    dryRun: argv.includes('--dry-run'),
  });
  if (problems.length > 0) {
    console.error(`the npm package ${pkg.name}@${pkg.version} is not ready to publish:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    return 1;
  }
  console.log(`${pkg.name}@${pkg.version}: package checked${tag ? ` for tag ${tag}` : ''}`);
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
