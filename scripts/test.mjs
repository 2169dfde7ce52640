// The test suite, as CI runs it, in three tiers (scripts/test-tiers.mjs says which file is which):
//   unit  pure and in-process code, no external tool (`npm run test:unit`)
//   e2e   real k6, Fortio, vegeta, HTTP servers, git, Chromium (`npm run test:e2e`)
//   k8s   a local Kubernetes control plane (kube-apiserver + kwok) (`npm run test:k8s`)
// `npm test` checks lint and formatting, installs what the tiers need when it is missing (npm
// dependencies, the pinned k6/fortio/vegeta/actionlint builds, the control-plane binaries,
// Chromium), then runs every tier. Files run one at a time: the integration tests drive real
// load on a 2-core machine and must not share it.
//   node scripts/test.mjs                  everything (lint, format, setup, all tiers)
//   node scripts/test.mjs --tier unit      one tier (repeat --tier for more); unit needs no setup
//   node scripts/test.mjs <substring>...   the files whose path contains a substring, no setup
// A tier whose tools are missing is skipped outside CI with what is missing and how to get it;
// with CI=true it fails instead.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { missingToolsFor, TIERS, tierOf } from './test-tiers.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const inCi = process.env.CI === 'true';

function step(title, command, args) {
  console.log(`\n▶ ${title}`);
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`${title} failed (${command} ${args.join(' ')} exited ${result.status})`);
    process.exit(result.status ?? 1);
  }
}

const args = process.argv.slice(2);
const tiers = [];
const filters = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--tier') {
    const tier = args[++i];
    if (!TIERS.includes(tier)) {
      console.error(`--tier ${tier ?? '(missing)'}: expected one of ${TIERS.join(', ')}`);
      process.exit(2);
    }
    tiers.push(tier);
  } else filters.push(args[i]);
}
const everything = tiers.length === 0 && filters.length === 0;
const selected = tiers.length > 0 ? tiers : TIERS;

if (!existsSync(join(root, 'node_modules/.package-lock.json')))
  step('Installing npm dependencies', 'npm', ['ci', '--no-audit', '--no-fund']);
if (everything) {
  step('Lint (biome lint, knip)', 'npm', ['run', '--silent', 'lint']);
  step('Formatting (biome format)', 'npm', ['run', '--silent', 'format:check']);
}
// A filtered run (`node scripts/test.mjs <substring>`) is a developer's quick loop: it skips setup.
const setup = filters.length === 0 && !process.env.MESH_PERF_SKIP_TOOLS;
if (setup && selected.some((t) => t !== 'unit')) {
  step('Pinned test tools (k6, fortio, vegeta, actionlint, act)', 'bash', ['scripts/install-test-tools.sh']);
  if (selected.includes('k8s') && existsSync('scripts/k8s/build.sh')) step('Control-plane binaries', 'bash', ['scripts/k8s/build.sh']);
  if (selected.includes('e2e') && existsSync('scripts/install-browser.sh')) step('Chromium', 'bash', ['scripts/install-browser.sh']);
}

function findTests(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...findTests(path));
    else if (name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

const files = findTests('test')
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .filter((f) => selected.includes(tierOf(f)))
  .sort();
if (files.length === 0) {
  console.error(`no test files match ${[...filters, ...tiers.map((t) => `--tier ${t}`)].join(' ')}`);
  process.exit(2);
}

let failed = false;
for (const tier of TIERS) {
  const tierFiles = [];
  const missing = new Map();
  for (const file of files.filter((f) => tierOf(f) === tier)) {
    const tools = missingToolsFor(file);
    if (tools.length === 0) tierFiles.push(file);
    for (const tool of tools) missing.set(tool.name, { ...tool, files: [...(missing.get(tool.name)?.files ?? []), file] });
  }
  if (missing.size > 0) {
    const lines = [...missing.values()]
      .map((m) => `  ${m.name}: ${m.path} is missing; ${m.how} (needed by ${m.files.length} file${m.files.length === 1 ? '' : 's'})`)
      .join('\n');
    if (inCi) {
      console.error(`\n✖ test:${tier}: tools are missing:\n${lines}`);
      failed = true;
    } else {
      const skipped = files.filter((f) => tierOf(f) === tier && !tierFiles.includes(f));
      console.log(
        `\n⚠ test:${tier}: skipping ${skipped.length} file${skipped.length === 1 ? '' : 's'} (${skipped.join(', ')}), tools are missing:\n${lines}\n  (with CI=true this fails)`,
      );
    }
  }
  if (tierFiles.length === 0) continue;
  console.log(`\n▶ test:${tier}: ${tierFiles.length} files`);
  const started = Date.now();
  // Unit files drive no load and share no ports, so they run side by side; the others one at a time.
  const concurrency = tier === 'unit' ? availableParallelism() : 1;
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...tierFiles],
    {
      stdio: 'inherit',
    },
  );
  console.log(`▶ test:${tier} ${result.status === 0 ? 'passed' : 'failed'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
