// The test suite, as CI runs it, in tiers (scripts/test-tiers.mjs says which file is which):
//   unit  pure and in-process code, no external tool (`npm run test:unit`)
//   e2e   real k6, Fortio, vegeta, HTTP servers, git, Chromium (`npm run test:e2e`)
//   k8s   a local Kubernetes control plane (kube-apiserver + kwok) (`npm run test:k8s`)
//   real  a real node (containerd, kubelet, Istio ambient's ztunnel, Linkerd's proxy) in namespaces
//         of its own (`npm run test:real`); skipped, on CI too, until scripts/real/build.sh has
//         built it; it runs after the k8s tier, alone
//   kind  the product's default platform on real kind clusters (kind v0.31.0, Debian's dockerd in
//         namespaces of its own, a node image assembled offline) with baseline, Istio ambient and
//         Linkerd (`npm run test:kind`); skipped, on CI too, until scripts/kind/build.sh has built
//         it; it runs after the real tier, alone
//   faults the real node's fault tier (test/real/faults.test.ts, issue 51: proxies, pods, the API
//         server and mesh-perf itself broken under load); opt-in (`npm run test:faults`, or a
//         path filter naming it): ten minutes a run, so `npm test` leaves it out (it passed five
//         runs in a row on a quiet machine; scripts/test-tiers.mjs OPT_IN_TIERS says when to run it)
// `npm test` checks lint and formatting, installs what the tiers need when it is missing (npm
// dependencies, the pinned k6/fortio/vegeta/actionlint builds, the control-plane binaries,
// Chromium), then runs every tier. Unit files run side by side; e2e files that drive real load
// (scripts/test-tiers.mjs lists them) run one at a time, as they must not share a 2-core machine,
// and the other e2e files two at a time, beside the k8s tier. After the tiers it prints the ten slowest tests and each
// tier's time against its budget (a report: over budget does not fail the run).
//   node scripts/test.mjs                  everything (lint, format, setup, all tiers)
//   node scripts/test.mjs --tier unit      one tier (repeat --tier for more); unit needs no setup
//   node scripts/test.mjs <substring>...   the files whose path contains a substring, no setup
// A tier whose tools are missing is skipped outside CI with what is missing and how to get it;
// with CI=true it fails instead.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleUnitTests, groupBundles } from './bundle-unit-tests.mjs';
import {
  drivesLoad,
  K8S_SLOT_STAGGER_MS,
  K8S_SLOTS,
  k8sQueue,
  kindTierSkip,
  missingToolsFor,
  OPT_IN_TIERS,
  realTierSkip,
  TIERS,
  tierOf,
} from './test-tiers.mjs';

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
// A path filter reaches every tier; without one, the opt-in tiers run only when named.
const selected = tiers.length > 0 ? tiers : filters.length > 0 ? TIERS : TIERS.filter((t) => !OPT_IN_TIERS.includes(t));

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
if (everything)
  for (const tier of OPT_IN_TIERS)
    console.log(`\nℹ test:${tier} is not part of npm test (opt-in: npm run test:${tier}); see scripts/test-tiers.mjs OPT_IN_TIERS`);
if (files.length === 0) {
  console.error(`no test files match ${[...filters, ...tiers.map((t) => `--tier ${t}`)].join(' ')}`);
  process.exit(2);
}

/** Each tier's budget on a 2-core machine (issue 29): reported against, never enforced. */
const BUDGET_S = { unit: 30, e2e: 600, k8s: 720, real: 600, kind: 600, faults: 900 };
const durationsDir = mkdtempSync(join(tmpdir(), 'mesh-perf-test-durations-'));
const reporterPath = join(root, 'scripts/test-durations-reporter.mjs');
/** The CPU time of every child this process has waited for (Linux: /proc/self/stat cutime + cstime). */
function childCpuSeconds() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
}
const loadAverage = () => (existsSync('/proc/loadavg') ? readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ') : 'n/a');

/**
 * One node --test run over `files`; the spec output to the terminal, durations to a JSON-lines
 * file. Resolves with its exit status, so that several runs can go side by side.
 */
function runFiles(label, files, concurrency, runtime = ['--import', 'tsx']) {
  const out = join(durationsDir, `${label}.jsonl`);
  const child = spawn(
    process.execPath,
    [
      ...runtime,
      '--test',
      `--test-concurrency=${concurrency}`,
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      `--test-reporter=${reporterPath}`,
      `--test-reporter-destination=${out}`,
      ...files,
    ],
    { stdio: 'inherit' },
  );
  return new Promise((resolvePromise) => {
    child.on('error', () => resolvePromise({ status: 1, out }));
    child.on('close', (status) => resolvePromise({ status, out, cpu: reapedCpu() }));
  });
}

/**
 * The CPU of the child just reaped (with its own waited-for children): this process's children's
 * CPU rises only as each is reaped, so the rise since the last reap is that child's, even when
 * tiers run side by side.
 */
let lastReaped = childCpuSeconds();
function reapedCpu() {
  const now = childCpuSeconds();
  if (now === undefined || lastReaped === undefined) return undefined;
  const spent = now - lastReaped;
  lastReaped = now;
  return spent;
}

const jobTimes = [];
const durationFiles = [];
const suiteStarted = Date.now();
let failed = false;

/** The files of a tier that can run here, after saying what is skipped and why; [] when none can. */
function runnableFiles(tier) {
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
  if ((tier === 'real' || tier === 'kind' || tier === 'faults') && tierFiles.length > 0) {
    const why = tier === 'kind' ? kindTierSkip() : realTierSkip();
    if (why) {
      console.log(`\n⚠ test:${tier}: skipping ${tierFiles.length} file${tierFiles.length === 1 ? '' : 's'}: ${why}`);
      return [];
    }
  }
  return tierFiles;
}

/**
 * The jobs of a tier: each a label, the lanes it runs at once (each lane one `node --test` over its
 * files, one after another) and the files each of those runs at a time. Files that share no ports
 * and drive no load run side by side (unit: as many as there are cores; e2e: two; k8s: each with
 * its own control plane, K8S_SLOTS at once from a queue, longest first); e2e files that drive load
 * and the real tier run alone, one file at a time.
 */
function jobsOf(tier, tierFiles) {
  if (tier === 'unit') return [{ tier, label: 'unit', lanes: [tierFiles], concurrency: availableParallelism() }];
  if (tier === 'e2e')
    return [
      { tier, label: 'e2e-parallel', lanes: [tierFiles.filter((f) => !drivesLoad(f))], concurrency: 2 },
      { tier, label: 'e2e-load', lanes: [tierFiles.filter((f) => drivesLoad(f))], concurrency: 1 },
    ];
  if (tier === 'real' || tier === 'kind' || tier === 'faults') return [{ tier, label: tier, lanes: [tierFiles], concurrency: 1 }];
  return [{ tier, label: tier, queue: k8sQueue(tierFiles), slots: K8S_SLOTS, lanes: [], concurrency: 1 }];
}

async function runJob({ tier, label, lanes, concurrency, queue, slots }) {
  const count = queue ? queue.length : lanes.reduce((n, lane) => n + lane.length, 0);
  if (count === 0) return;
  const started = Date.now();
  const how = queue
    ? `, ${Math.min(slots, count)} at a time, longest first`
    : lanes.length > 1
      ? ` in ${lanes.length} lanes side by side`
      : `, ${concurrency} at a time`;
  console.log(`\n▶ ${label}: ${count} file${count === 1 ? '' : 's'}${how} (load average ${loadAverage()})`);
  // Unit files run bundled, several to a process (scripts/bundle-unit-tests.mjs says why); the
  // others under tsx, one file to a process. Two processes per core even out their lengths.
  const run = async (lane, i) =>
    tier === 'unit'
      ? runFiles(label, await groupBundles(root, await bundleUnitTests(root, lane), 2 * concurrency), concurrency, ['--enable-source-maps'])
      : runFiles(lanes.length > 1 ? `${label}-${i}` : label, lane, concurrency);
  // A queue: each slot takes the next file as its last one ends, one `node --test` per file. The
  // slots start K8S_SLOT_STAGGER_MS apart: seven control planes booting at once (etcd, apiserver,
  // controller-manager, scheduler, kwok each) held a 2-core machine at load 30 for a minute, and
  // a group of k6 runners then started 276 ms apart (the product allows 250 ms).
  const drain = async (slot) => {
    await new Promise((r) => setTimeout(r, slot * K8S_SLOT_STAGGER_MS));
    const done = [];
    for (let file = queue.shift(); file !== undefined; file = queue.shift())
      done.push(await runFiles(`${label}-${slot}-${done.length}`, [file], 1));
    return done;
  };
  const results = queue
    ? (await Promise.all(Array.from({ length: Math.min(slots, count) }, (_, slot) => drain(slot)))).flat()
    : await Promise.all(lanes.filter((lane) => lane.length > 0).map(run));
  let jobFailed = false;
  let cpu = 0;
  for (const { status, out, cpu: spent } of results) {
    durationFiles.push(out);
    if (spent !== undefined) cpu += spent;
    if (status !== 0) jobFailed = true;
  }
  const seconds = (Date.now() - started) / 1000;
  jobTimes.push({ tier, label, seconds, cpu: childCpuSeconds() === undefined ? undefined : cpu, load: loadAverage() });
  console.log(`▶ ${label} ${jobFailed ? 'failed' : 'passed'} in ${seconds.toFixed(1)} s`);
  if (jobFailed) failed = true;
}

// The schedule: phases one after another, the jobs of a phase side by side. The e2e files that
// drive no load (Chromium, git, act's workflow checks, the simulated acceptance) run beside the
// k8s files, which mostly wait on rollouts and istioctl (0.7 of a core in a CI run of 2026-11-28):
// that takes their ~5 minutes off the suite's wall time. What measures latency has the machine to
// itself: the e2e files that drive load, then the real tier, then the kind tier. The real tier ran beside the k8s tier
// for a while, but in a full CI run on 2 cores (2026-11-28) that stalled the node's k6 (p99 of
// 0.1-1.2 s, repetitions invalid for dropped iterations) and the real tier's A/B ended invalid.
const runnable = Object.fromEntries(TIERS.map((tier) => [tier, runnableFiles(tier)]));
const jobs = Object.fromEntries(TIERS.map((tier) => [tier, jobsOf(tier, runnable[tier])]));
const job = (tier, label) => jobs[tier].find((j) => j.label === label);
const phases = [jobs.unit, [job('e2e', 'e2e-parallel'), ...jobs.k8s], [job('e2e', 'e2e-load')], jobs.real, jobs.kind, jobs.faults];
// A tier left out of the schedule would run nothing and pass (test:faults did, until this check).
const scheduled = new Set(phases.flat());
for (const tier of TIERS)
  for (const j of jobs[tier])
    if (!scheduled.has(j)) {
      console.error(`scripts/test.mjs: job ${j.label} of tier ${tier} is in no phase of the schedule`);
      process.exit(2);
    }
for (const phase of phases) {
  const live = phase.filter((j) => (j.queue ?? []).length > 0 || j.lanes.some((lane) => lane.length > 0));
  if (live.length > 1) console.log(`\n▶ ${live.map((j) => j.label).join(' and ')} side by side`);
  await Promise.all(live.map(runJob));
}
// What the durations reporter wrote, one JSON line per finished test, read once for all below.
const reported = durationFiles
  .filter((f) => existsSync(f))
  .map((f) => readFileSync(f, 'utf8'))
  .join('');
const tests = reported
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line));
printTimings(tests);
printFailures(tests);
// Every test's time, for tuning the k8s lanes (K8S_SECONDS) from a CI run: MESH_PERF_TEST_DURATIONS=FILE.
if (process.env.MESH_PERF_TEST_DURATIONS) writeFileSync(process.env.MESH_PERF_TEST_DURATIONS, reported);
rmSync(durationsDir, { recursive: true, force: true });
process.exit(failed ? 1 : 0);

/**
 * Every failed test with its reason, last of all: a CI log is often read from its tail, and the
 * spec reporter's account of a failure sits among hundreds of lines of the tiers running side by side.
 */
function printFailures(tests) {
  // A parent whose subtest failed says only that; the subtest's own line carries the reason.
  const failures = tests.filter((t) => !t.passed && !/^\d+ subtests? failed$/.test(t.error ?? ''));
  if (failures.length === 0) return;
  console.log(`\n▶ Failed tests (${failures.length})`);
  for (const t of failures) {
    console.log(`✖ ${t.file ?? '?'}: ${t.name}`);
    for (const line of (t.error ?? '').trimEnd().split('\n').slice(0, 20)) console.log(`    ${line}`);
  }
}

/** The ten slowest tests, each file's time, and every tier's time against its budget. */
function printTimings(tests) {
  // Top-level tests only: a subtest's time is inside its parent's.
  const top = tests.filter((t) => t.nesting === 0);
  const slowest = [...top].sort((a, b) => b.ms - a.ms).slice(0, 10);
  const fmt = (ms) => `${(ms / 1000).toFixed(1)} s`.padStart(8);
  if (slowest.length > 0) {
    console.log('\n▶ Ten slowest tests');
    for (const t of slowest) console.log(`${fmt(t.ms)}  ${t.file ?? '?'}: ${t.name}`);
    const perFile = new Map();
    for (const t of top) perFile.set(t.file, (perFile.get(t.file) ?? 0) + t.ms);
    console.log("\n▶ Slowest files (their tests' time, one after another)");
    for (const [file, ms] of [...perFile].sort((a, b) => b[1] - a[1]).slice(0, 10)) console.log(`${fmt(ms)}  ${file}`);
  }
  if (jobTimes.length === 0) return;
  console.log('\n▶ Tier times against their budget (2-core machine; a report, not a gate)');
  for (const tier of TIERS) {
    const parts = jobTimes.filter((j) => j.tier === tier);
    if (parts.length === 0) continue;
    const seconds = parts.reduce((sum, j) => sum + j.seconds, 0);
    const budget = BUDGET_S[tier];
    const verdict = seconds <= budget ? 'within budget' : `OVER BUDGET by ${(seconds - budget).toFixed(0)} s`;
    const split = parts.length > 1 ? ` (${parts.map((j) => `${j.label} ${j.seconds.toFixed(0)} s`).join(' + ')})` : '';
    const cpus = parts.map((j) => j.cpu);
    const cpuText = cpus.includes(undefined) ? '' : `, ${cpus.reduce((a, b) => a + b, 0).toFixed(0)} s CPU`;
    console.log(
      `  ${tier.padEnd(4)} ${seconds.toFixed(1).padStart(7)} s of ${budget} s: ${verdict}${split} (load average ${parts.at(-1).load} at the end${cpuText})`,
    );
  }
  console.log(
    `  suite ${((Date.now() - suiteStarted) / 1000).toFixed(1).padStart(7)} s from the first tier to the last (tiers side by side overlap)`,
  );
}
