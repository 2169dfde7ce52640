// The whole test suite, as CI runs it: installs what the tests need when it is missing (npm
// dependencies, the pinned k6/fortio/vegeta/actionlint builds, the Kubernetes control-plane
// binaries, Chromium), then runs every test file with Node's test runner, one file at a time:
// the integration tests drive real load on a 2-core machine and must not share it.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

function step(title, command, args) {
  console.log(`\n▶ ${title}`);
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`test setup failed: ${title} (${command} ${args.join(' ')} exited ${result.status})`);
    process.exit(result.status ?? 1);
  }
}

const filters = process.argv.slice(2);
// A filtered run (`node scripts/test.mjs <substring>`) is a developer's quick loop: it skips setup.
const setup = filters.length === 0 && !process.env.MESH_PERF_SKIP_TOOLS;
if (!existsSync(join(root, 'node_modules/.package-lock.json'))) step('Installing npm dependencies', 'npm', ['ci', '--no-audit', '--no-fund']);
if (setup) {
  step('Pinned test tools (k6, fortio, vegeta, actionlint, act)', 'bash', ['scripts/install-test-tools.sh']);
  for (const script of ['scripts/k8s/build.sh', 'scripts/install-browser.sh']) {
    if (existsSync(join(root, script))) step(`Test components: ${script}`, 'bash', [script]);
  }
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
  .sort();
if (files.length === 0) {
  console.error(`no test files match ${filters.join(' ')}`);
  process.exit(2);
}
console.log(`\n▶ Running ${files.length} test files`);
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', '--test-reporter=spec', ...files], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
