// Every flag every `--help` lists is exercised by a test that shows it changes what it says (issue
// 54: `run --publish` was listed and did nothing). COVERAGE names, for each command and flag, the
// test that does so: a test of this file, or one elsewhere (file and title, checked to exist and to
// use the flag). A flag added to a command without a line here fails the first test.
//   - The override flags (src/config/overrides.ts: --rate, --suite, --kubeconfig, …) set one config
//     field each: the second test loads the config through each command that lists the flag and
//     reads the field back, against the same config without the flag.
//   - The rest are tested where their effect is: here when it shows in-process (publish, report,
//     compare, the image arms, --help), elsewhere when it needs real load, a cluster or a browser.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { parseArgs } from '../../src/cli/args.ts';
import type { CommandContext } from '../../src/cli/command.ts';
import { loadClusterConfig } from '../../src/cli/commands/up.ts';
import { loadCommandConfig } from '../../src/cli/load-config.ts';
import { overrideValues } from '../../src/cli/override-options.ts';
import { COMMANDS } from '../../src/cli/registry.ts';
import { OVERRIDES } from '../../src/config/overrides.ts';
import { publicConfig } from '../../src/config/public.ts';
import type { Config } from '../../src/config/validate.ts';
import type { ConfirmationRecord } from '../../src/confirm/record.ts';
import { openStore } from '../../src/history/open-store.ts';
import type { RunResult } from '../../src/results/types.ts';
import { silentLogger } from '../../src/util/log.ts';
import { analyzeWorded, syntheticRun, testConfig } from '../analysis/synthetic.ts';
import { STEP_AT, steppedRuns } from '../history/support/stepped-runs.ts';
import { runCliInProcess, withTempDir } from '../support/cli.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
const HERE = 'test/cli/every-flag.test.ts';
const OVERRIDE_TEST = 'each override flag sets its config field';

/** Where each command's each flag is shown to work: this file's test titles, or `file: title`. */
const COVERAGE: Record<string, string> = {
  'demo --out': 'test/integration/demo.test.ts: mesh-perf demo from the installed package writes schema-valid results (--out)',
  'demo --wide': 'test/integration/demo.test.ts: mesh-perf demo from the installed package writes schema-valid results (--out)',
  'init --platform': 'test/cli/init.test.ts: init --platform',
  'init --preset': 'test/cli/init.test.ts: init --preset: plan accepts it and shows the preset',
  'init --config': 'test/cli/init.test.ts: init --preset: plan accepts it and shows the preset',
  'init --force': 'test/cli/init.test.ts: init refuses to overwrite without --force',
  'run --config': 'test/cli/run-publish.test.ts: history.publish: true publishes each run',
  'run --out': 'test/cli/run-flags.test.ts: run with its own flags',
  'run --baseline': 'test/cli/run-flags.test.ts: run with its own flags',
  'run --wide': 'test/cli/run-flags.test.ts: run with its own flags',
  'run --ab-base-config': 'test/cli/run-flags.test.ts: run with its own flags',
  'run --ab-head-image': 'the image arms',
  'run --ab-base-image': 'the image arms',
  'run --publish': 'test/cli/run-publish.test.ts: history.publish: true publishes each run',
  'run --history-store': 'test/cli/run-publish.test.ts: history.publish: true publishes each run',
  'run --dashboard-url': 'test/cli/run-flags.test.ts: run with its own flags',
  'plan --config': 'test/plan/cpu-window.test.ts: plan prints the minimum under the trial table and in its JSON',
  'plan --json': 'test/plan/cpu-window.test.ts: plan prints the minimum under the trial table and in its JSON',
  'plan --ab-base-config': 'test/cli/plan-arms.test.ts: plan --ab-base-config',
  'plan --ab-head-image': 'test/cli/plan-arms.test.ts: plan --ab-head-image',
  'plan --ab-base-image': 'test/cli/plan-arms.test.ts: plan --ab-head-image',
  'compare --config': 'compare --config and --json',
  'compare --json': 'compare --config and --json',
  'calibrate --config': 'test/analysis/calibrate-command.test.ts: calibrate --repetitions 4',
  'calibrate --mode': 'test/analysis/calibrate-command.test.ts: calibrate --repetitions 4',
  'calibrate --repetitions': 'test/analysis/calibrate-command.test.ts: calibrate --repetitions 4',
  'calibrate --mde': 'test/analysis/calibrate-command.test.ts: calibrate measures one mode twice',
  'calibrate --out': 'test/analysis/calibrate-command.test.ts: calibrate measures one mode twice',
  'calibrate --json': 'test/analysis/calibrate-command.test.ts: calibrate --repetitions 4',
  'presets --json': 'test/presets/presets-command.test.ts: mesh-perf presets --json lists trials and estimates',
  'publish --results': 'publish into a folder store',
  'publish --store': 'publish into a folder store',
  'publish --suite': 'publish into a folder store',
  'publish --keep': 'publish into a folder store',
  'publish --keep-timelines': 'publish into a folder store',
  'publish --adopt': 'publish and report --adopt',
  'publish --config': 'publish into a folder store',
  'publish --json': 'publish into a folder store',
  'publish --branch': 'test/cli/run-flags.test.ts: publish and report --branch',
  'publish --change-point':
    'test/history/change-points.test.ts: publishing the runs that complete a step raises the change-point gate line',
  'publish --confirmation': 'test/history/confirmations.test.ts: publish records a confirmation.json and applies the gate',
  'report --store': 'test/report/report-command.test.ts: report --store rebuilds the branch in place',
  'report --out': 'test/report/report-command.test.ts: report --store rebuilds the branch in place',
  'report --results': 'test/report/report-command.test.ts: report --results writes report.html',
  'report --format': 'test/report/report-command.test.ts: report --results writes report.html',
  'report --branch': 'test/cli/run-flags.test.ts: publish and report --branch',
  'report --keep': 'report --keep and --keep-timelines',
  'report --keep-timelines': 'report --keep and --keep-timelines',
  'report --adopt': 'publish and report --adopt',
  'confirm --store': 'confirm --suite, --series-branch and --config say where to look',
  'confirm --suite': 'confirm --suite, --series-branch and --config say where to look',
  'confirm --series-branch': 'confirm --suite, --series-branch and --config say where to look',
  'confirm --config': 'confirm --suite, --series-branch and --config say where to look',
  'confirm --change-point': 'confirm --change-point picks a change point by name',
  'confirm --out': 'confirm --json and --record',
  'confirm --json': 'confirm --json and --record',
  'confirm --record': 'confirm --json and --record',
  'confirm --max-duration': 'confirm --max-duration',
  'confirm --branch': 'confirm --branch',
  'up --config': 'test/kubernetes/up-down.test.ts: up deploys baseline and istio-ambient',
  'down --config': 'test/kubernetes/up-down.test.ts: up deploys baseline and istio-ambient',
};

/** Every command's every flag, `--help` included (main() answers it for each command). */
function listedFlags(): string[] {
  return COMMANDS.flatMap((c) => [...c.options.map((o) => `${c.name} --${o.name}`), `${c.name} --help`]);
}

/** The override row behind a command's option, when the option is one (publish's --suite is its own). */
function overrideOf(option: { name: string; description: string }) {
  return OVERRIDES.find((o) => o.flag === option.name && o.description === option.description);
}

const overrideFlag = (key: string) => {
  const [name, flag] = key.split(' --') as [string, string];
  const option = COMMANDS.find((c) => c.name === name)?.options.find((o) => o.name === flag);
  return option !== undefined && overrideOf(option) !== undefined;
};

test('every flag of every command has a test that shows it working, named here', () => {
  const missing: string[] = [];
  for (const key of listedFlags()) {
    if (key.endsWith(' --help') || overrideFlag(key)) continue;
    const where = COVERAGE[key];
    if (!where) {
      missing.push(`${key}: no test named in COVERAGE`);
      continue;
    }
    const [file, title] = where.includes(': ') && where.startsWith('test/') ? where.split(/: (.*)/s) : [HERE, where];
    const text = existsSync(join(ROOT, file!)) ? readFileSync(join(ROOT, file!), 'utf8') : '';
    if (!text) missing.push(`${key}: ${file} does not exist`);
    else if (!text.includes(`test(${quoteOf(text, title!)}${title}`) && !new RegExp(`test\\(\\s*['"\`]${escapeRegExp(title!)}`).test(text))
      missing.push(`${key}: ${file} has no test titled "${title}…"`);
    else if (!text.includes(`--${key.split(' --')[1]}`) && !text.includes(`'${key.split(' --')[1]}'`))
      missing.push(`${key}: ${file} never uses it`);
  }
  assert.deepEqual(missing, []);
  // And nothing listed here that no command has any more.
  const listed = new Set(listedFlags());
  assert.deepEqual(
    Object.keys(COVERAGE).filter((k) => !listed.has(k)),
    [],
  );
});

function quoteOf(text: string, title: string): string {
  return ["'", '"', '`'].find((q) => text.includes(`test(${q}${title}`)) ?? "'";
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

test("`<command> --help` prints that command's usage and each of its flags with its description", async () => {
  for (const command of COMMANDS) {
    const help = await runCliInProcess([command.name, '--help'], { cwd: ROOT, columns: 200 });
    assert.equal(help.code, 0);
    assert.match(help.stdout, new RegExp(`^mesh-perf ${command.name} — `));
    assert.match(help.stdout, new RegExp(`Usage: mesh-perf ${escapeRegExp(command.usage.split(' ')[0]!)}`));
    for (const option of command.options) {
      assert.match(
        help.stdout,
        new RegExp(
          `--${option.name}${option.value ? ` ${escapeRegExp(option.value)}` : ''}\\s+${escapeRegExp(option.description.slice(0, 30))}`,
        ),
      );
    }
    assert.match(help.stdout, /--help\s+Show this help/);
  }
});

/** A sample value per override flag, the config it is given over, and where the config holds it. */
const SAMPLES: Record<string, { value: string; cluster?: boolean; read: (c: Config) => unknown; expected: unknown }> = {
  preset: { value: 'ambient-modes', read: (c) => c.preset, expected: 'ambient-modes' },
  suite: { value: 'nightly', read: (c) => c.suite, expected: 'nightly' },
  platform: { value: 'kubeconfig', cluster: true, read: (c) => c.platform, expected: 'kubeconfig' },
  modes: { value: 'baseline,linkerd', cluster: true, read: (c) => c.modes.map((m) => m.name), expected: ['baseline', 'linkerd'] },
  rate: { value: '42', read: (c) => c.profiles[0]!.rate, expected: 42 },
  duration: { value: '7s', read: (c) => c.profiles[0]!.duration, expected: '7s' },
  repetitions: { value: '4', read: (c) => [c.profiles[0]!.repetitions, c.profiles[0]!.untilDecided], expected: [4, false] },
  'max-duration': { value: '3m', read: (c) => c.plan.budget.maxDuration, expected: '3m' },
  generators: { value: '2', read: (c) => c.profiles[0]!.generators, expected: 2 },
  engine: { value: 'k6-operator', cluster: true, read: (c) => c.profiles[0]!.engine, expected: 'k6-operator' },
  gates: { value: 'p(99) < 50ms', read: (c) => c.gates.thresholds, expected: ['p(99) < 50ms'] },
  'history-branch': { value: 'perf-history', read: (c) => c.history.branch, expected: 'perf-history' },
  seed: { value: '7', read: (c) => c.plan.seed, expected: 7 },
  'baseline-mode': { value: 'b', read: (c) => c.baseline, expected: 'b' },
  'history-store': { value: './store', read: (c) => c.history.store, expected: './store' },
  publish: { value: 'true', read: (c) => c.history.publish, expected: true },
  'dashboard-url': {
    value: 'https://example.test/dashboard/',
    read: (c) => c.github.dashboardUrl,
    expected: 'https://example.test/dashboard/',
  },
  kubeconfig: { value: './kube.yaml', cluster: true, read: (c) => c.kubernetes.kubeconfig, expected: './kube.yaml' },
  context: { value: 'perf-cluster', cluster: true, read: (c) => c.kubernetes.context, expected: 'perf-cluster' },
  'istio-version': { value: '1.29.2', cluster: true, read: (c) => c.kubernetes.istio.version, expected: '1.29.2' },
  'linkerd-version': { value: 'edge-26.8.2', cluster: true, read: (c) => c.kubernetes.linkerd.version, expected: 'edge-26.8.2' },
};

const LOCAL =
  'platform: local\nmodes:\n  - { name: a }\n  - { name: b, local: { hops: 1 } }\nload: { rate: 20, duration: 2s, repetitions: auto }\nhistory: { store: ./other }\n';
const CLUSTER = 'platform: kind\nmodes:\n  - { name: baseline }\n  - { name: istio-ambient }\nload: { rate: 20, duration: 2s }\n';

/** The config a command works from, as it loads it (up and down: their own loader). */
async function configOf(commandName: string, argv: string[], cwd: string): Promise<Config> {
  const command = COMMANDS.find((c) => c.name === commandName)!;
  const args = parseArgs(command, argv);
  if (commandName === 'up' || commandName === 'down') return loadClusterConfig(args.options.config, cwd, overrideValues(args), commandName);
  const context: CommandContext = { args, log: silentLogger, stdout: () => {}, signal: new AbortController().signal, cwd };
  return loadCommandConfig(context);
}

test(OVERRIDE_TEST, async () => {
  await withTempDir(async (dir) => {
    await writeFile(join(dir, 'local.yaml'), LOCAL);
    await writeFile(join(dir, 'cluster.yaml'), CLUSTER);
    let checked = 0;
    for (const command of COMMANDS) {
      for (const option of command.options) {
        const override = overrideOf(option);
        if (!override) continue;
        const sample = SAMPLES[override.flag];
        assert.ok(sample, `no sample value for --${override.flag} in SAMPLES`);
        const cluster = sample.cluster || command.name === 'up' || command.name === 'down';
        const file = cluster ? 'cluster.yaml' : 'local.yaml';
        const without = sample.read(await configOf(command.name, ['--config', file], dir));
        const withFlag = sample.read(await configOf(command.name, ['--config', file, `--${override.flag}`, sample.value], dir));
        assert.deepEqual(withFlag, sample.expected, `${command.name} --${override.flag} ${sample.value}: ${override.path}`);
        assert.notDeepEqual(without, withFlag, `${command.name} --${override.flag}: the config already held ${JSON.stringify(without)}`);
        checked++;
      }
    }
    assert.ok(checked >= 60, `${checked} command flags checked`);
  });
});

test('the image arms: run --ab-head-image (and --ab-base-image) run every cluster mode that can as two arms with those images', async () => {
  await withTempDir(async (dir) => {
    await writeFile(join(dir, 'cluster.yaml'), CLUSTER);
    const head = 'ghcr.io/acme/echo:2.0.0';
    const base = 'ghcr.io/acme/echo:1.9.0';
    for (const argv of [
      ['--ab-head-image', head],
      ['--ab-head-image', head, '--ab-base-image', base],
    ]) {
      const config = await configOf('run', ['--config', 'cluster.yaml', ...argv], dir);
      const arms = config.modes.filter((m) => m.arm);
      // istio-ambient cannot (one ztunnel per node serves both arms: plan says so); baseline can.
      assert.deepEqual(
        arms.map((m) => m.name),
        ['baseline-base', 'baseline-head'],
      );
      assert.ok(arms.filter((m) => m.arm!.side === 'head').every((m) => m.echoImage === head));
      if (argv.includes('--ab-base-image')) assert.ok(arms.filter((m) => m.arm!.side === 'base').every((m) => m.echoImage === base));
    }
  });
});

/** A finished, analysed run of two local modes, as results.json holds it. */
function finishedRun(id: string, startedAt: string, suite = 'default') {
  const config = testConfig({ suite, load: { rate: 100, duration: '10s', repetitions: 3 } }, ['baseline', 'sidecar']);
  const run = syntheticRun({ id, startedAt, config, levels: { baseline: [1, 1.01, 0.99], sidecar: [1.5, 1.52, 1.49] } });
  const analysis = analyzeWorded(run, { config });
  return { ...run, run: { ...run.run, platform: 'local' }, analysis, verdict: analysis.verdict, verdictReasons: analysis.verdictReasons };
}

async function writeRun(dir: string, name: string, run: ReturnType<typeof finishedRun>): Promise<string> {
  await mkdir(join(dir, name), { recursive: true });
  await writeFile(join(dir, name, 'results.json'), JSON.stringify(run));
  return join(dir, name);
}

const storedIds = async (store: string, suite: string) =>
  (await openStore(store, { chartJs: async () => '' }).list({ suite })).map((r) => r.run.id).sort();

test('publish into a folder store: --results and --store, --suite files them, --keep and --keep-timelines prune, --config gives the store, --json says what it did', async () => {
  await withTempDir(async (dir) => {
    const now = Date.now();
    const day = (n: number) => new Date(now - n * 86_400_000).toISOString();
    const old = await writeRun(dir, 'old', finishedRun('20250101T000000Z-0000aa', day(40)));
    const recent = await writeRun(dir, 'recent', finishedRun('20250102T000000Z-0000bb', day(1)));
    const store = join(dir, 'store');
    const plain = await runCliInProcess(['publish', '--results', old, '--results', recent, '--store', store], { cwd: dir });
    assert.equal(plain.code, 0, plain.stderr);
    assert.deepEqual(await storedIds(store, 'default'), ['20250101T000000Z-0000aa', '20250102T000000Z-0000bb']);

    // --suite: filed under another suite than the one the run carries.
    const suited = await runCliInProcess(['publish', '--results', recent, '--store', store, '--suite', 'nightly'], { cwd: dir });
    assert.equal(suited.code, 0, suited.stderr);
    assert.deepEqual(await storedIds(store, 'nightly'), ['20250102T000000Z-0000bb']);

    // --keep 30d: the 40-day-old run goes; --keep-timelines none: the rest lose their timelines.
    const kept = await runCliInProcess(
      ['publish', '--results', recent, '--store', store, '--keep', '30d', '--keep-timelines', 'none', '--json'],
      {
        cwd: dir,
      },
    );
    assert.equal(kept.code, 0, kept.stderr);
    const json = JSON.parse(kept.stdout) as { store: string; pruned: string[]; compacted?: string[]; unchanged: string[] };
    assert.equal(json.store, `directory ${store}`);
    assert.equal(json.pruned.length, 1, kept.stdout);
    assert.deepEqual(await storedIds(store, 'default'), ['20250102T000000Z-0000bb']);
    assert.ok((json.compacted ?? []).length >= 1 || json.unchanged.length >= 1, kept.stdout);

    // --config: the store (and suite settings) come from the file's history section.
    await writeFile(join(dir, 'mesh-perf.yaml'), 'history: { store: ./from-config }\nmodes: [{ name: a }]\nload: { rate: 1 }\n');
    const configured = await runCliInProcess(['publish', '--results', recent, '--config', 'mesh-perf.yaml'], { cwd: dir });
    assert.equal(configured.code, 0, configured.stderr);
    assert.deepEqual(await storedIds(join(dir, 'from-config'), 'default'), ['20250102T000000Z-0000bb']);
  });
});

test('publish and report --adopt: a folder that holds other files is refused, and written into with --adopt', async () => {
  await withTempDir(async (dir) => {
    const run = await writeRun(dir, 'run', finishedRun('20250103T000000Z-0000cc', new Date().toISOString()));
    for (const command of ['publish', 'report'] as const) {
      const site = join(dir, `site-${command}`);
      await mkdir(site);
      await writeFile(join(site, 'index.html'), '<p>our docs</p>');
      const args = command === 'publish' ? ['publish', '--results', run, '--store', site] : ['report', '--store', site];
      const refused = await runCliInProcess(args, { cwd: dir });
      assert.notEqual(refused.code, 0, `${command} without --adopt`);
      assert.match(refused.stderr, /adopt/);
      const adopted = await runCliInProcess([...args, '--adopt'], { cwd: dir });
      assert.equal(adopted.code, 0, `${command} --adopt: ${adopted.stderr}`);
      // Written beside the other files, which are left alone.
      assert.equal(await readFile(join(site, 'index.html'), 'utf8'), '<p>our docs</p>');
      assert.ok((await readdir(site)).length > 1);
    }
  });
});

test('report --keep and --keep-timelines rebuild the store with that retention', async () => {
  await withTempDir(async (dir) => {
    const now = Date.now();
    const day = (n: number) => new Date(now - n * 86_400_000).toISOString();
    const store = join(dir, 'store');
    const runs = [
      await writeRun(dir, 'a', finishedRun('20250104T000000Z-0000dd', day(50))),
      await writeRun(dir, 'b', finishedRun('20250105T000000Z-0000ee', day(2))),
    ];
    assert.equal(
      (await runCliInProcess(['publish', '--results', runs[0]!, '--results', runs[1]!, '--store', store], { cwd: dir })).code,
      0,
    );
    const rebuilt = await runCliInProcess(['report', '--store', store, '--keep', '30d', '--keep-timelines', 'none'], { cwd: dir });
    assert.equal(rebuilt.code, 0, rebuilt.stderr);
    assert.deepEqual(await storedIds(store, 'default'), ['20250105T000000Z-0000ee']);
  });
});

test('compare --config and --json: the gates of the config judge the two files; the analysis as JSON', async () => {
  await withTempDir(async (dir) => {
    const a = await writeRun(dir, 'a', finishedRun('20250106T000000Z-0000f1', '2025-01-06T00:00:00Z'));
    const b = await writeRun(dir, 'b', finishedRun('20250107T000000Z-0000f2', '2025-01-07T00:00:00Z'));
    // Without a config: the default gates. With one: its threshold is judged too.
    await writeFile(join(dir, 'gates.yaml'), "modes: [{ name: baseline }]\nload: { rate: 1 }\ngates: { thresholds: ['p(50) < 0.1ms'] }\n");
    const plain = await runCliInProcess(['compare', join(a, 'results.json'), join(b, 'results.json'), '--json'], { cwd: dir });
    const gated = await runCliInProcess(['compare', join(a, 'results.json'), join(b, 'results.json'), '--config', 'gates.yaml', '--json'], {
      cwd: dir,
    });
    const thresholds = (out: string) =>
      (JSON.parse(out) as { gates: { gate: string }[] }).gates.filter((g) => g.gate === 'p(50) < 0.1ms').length;
    assert.equal(thresholds(plain.stdout), 0, plain.stderr);
    assert.equal(thresholds(gated.stdout), 2, gated.stderr);
    assert.equal(gated.code, 1, 'the threshold fails both modes');
    // Without --json: the table and the verdict lines, not JSON.
    const text = await runCliInProcess(['compare', join(a, 'results.json'), join(b, 'results.json')], { cwd: dir });
    assert.match(text.stdout, /^Comparing /);
  });
});

/**
 * Daily runs of suite nightly on the local platform whose istio-sidecar series steps up 30 % where
 * k6 (and the cluster's Istio and istiod's image) changed: a change point nothing an arm can carry
 * explains, which confirm decides (cannot re-run: only fixed changes) without running any load.
 */
function fixedStepRuns(): RunResult[] {
  const config = publicConfig(testConfig({ suite: 'nightly', platform: 'local', load: { rate: 1000 } }, ['baseline', 'istio-sidecar']));
  return steppedRuns(STEP_AT + 4).map((r, i) => ({
    ...r,
    config,
    run: { ...r.run, platform: 'local', tools: { ...r.run.tools, k6: i < STEP_AT ? '1.8.1' : '1.9.0' } },
  }));
}

/** The fixed-only step published into a folder store at `root`; the run it starts at. */
async function publishFixedStep(root: string): Promise<string> {
  const runs = fixedStepRuns();
  await openStore(root, { chartJs: async () => '' }).publish(runs);
  return runs[STEP_AT]!.run.id;
}

const CANNOT_RERUN = /^cannot re-run: what changed cannot be an arm here: .*tools\.k6 1\.8\.1 → 1\.9\.0/m;
const confirmCli = (args: string[], dir: string) => runCliInProcess(['confirm', ...args], { cwd: dir, columns: 1000 });
const confirmationIn = async (out: string) => JSON.parse(await readFile(join(out, 'confirmation.json'), 'utf8')) as ConfirmationRecord;

test('confirm --suite, --series-branch and --config say where to look: the suite and branch of the store (--store or the config) whose change point it confirms', async () => {
  await withTempDir(async (dir) => {
    const root = join(dir, 'history');
    const after = await publishFixedStep(root);
    // The default suite holds nothing; --suite nightly holds the step (on branch main).
    const plain = await confirmCli(['--store', root, '--out', 'plain'], dir);
    assert.equal(plain.code, 0, plain.stderr);
    assert.match(plain.stdout, /^nothing to confirm: .*\(suite default, branch \(none\), 0 change points\)$/m);
    assert.match(plain.stderr, /in suite default of directory /);
    const suited = await confirmCli(['--store', root, '--suite', 'nightly', '--series-branch', 'main', '--out', 'suited'], dir);
    assert.equal(suited.code, 0, suited.stderr);
    assert.match(suited.stderr, /in suite nightly \(branch main\) of directory /);
    assert.match(suited.stdout, CANNOT_RERUN);
    const record = await confirmationIn(join(dir, 'suited'));
    assert.deepEqual([record.suite, record.branch, record.mode, record.after], ['nightly', 'main', 'istio-sidecar', after]);
    // --series-branch: another branch's series show no change point (without it: the newest run's, main).
    const other = await confirmCli(['--store', root, '--suite', 'nightly', '--series-branch', 'release', '--out', 'other'], dir);
    assert.equal(other.code, 0, other.stderr);
    assert.match(other.stdout, /^nothing to confirm: .*\(suite nightly, branch release, 0 change points\)$/m);
    // --config: the store and the suite from the file.
    await writeFile(
      join(dir, 'mesh-perf.yaml'),
      'suite: nightly\nhistory: { store: ./history }\nmodes: [{ name: a }]\nload: { rate: 1 }\n',
    );
    const configured = await confirmCli(['--config', 'mesh-perf.yaml', '--out', 'configured'], dir);
    assert.equal(configured.code, 0, configured.stderr);
    assert.match(configured.stderr, /in suite nightly of directory .*history/);
    assert.match(configured.stdout, CANNOT_RERUN);
    assert.equal((await confirmationIn(join(dir, 'configured'))).after, after);
  });
});

test('confirm --change-point picks a change point by name, and a name that matches none is a usage error listing the newest', async () => {
  await withTempDir(async (dir) => {
    const root = join(dir, 'history');
    const after = await publishFixedStep(root);
    // Newest (the default): the mode's p50 before its other figures at the same runs.
    const newest = await confirmCli(['--store', root, '--suite', 'nightly', '--out', 'newest'], dir);
    assert.equal(newest.code, 0, newest.stderr);
    assert.equal((await confirmationIn(join(dir, 'newest'))).metric, 'p50');
    const named = await confirmCli(
      ['--store', root, '--suite', 'nightly', '--change-point', `1000rps/istio-sidecar/ratio@${after}`, '--out', 'named'],
      dir,
    );
    assert.equal(named.code, 0, named.stderr);
    assert.match(named.stdout, CANNOT_RERUN);
    assert.deepEqual(
      [(await confirmationIn(join(dir, 'named'))).metric, (await confirmationIn(join(dir, 'named'))).after],
      ['ratio', after],
    );
    const unknown = await confirmCli(
      ['--store', root, '--suite', 'nightly', '--change-point', '1000rps/istio-sidecar/p50@gone', '--out', 'x'],
      dir,
    );
    assert.equal(unknown.code, 2, unknown.stdout);
    assert.match(
      unknown.stderr,
      new RegExp(
        `--change-point 1000rps/istio-sidecar/p50@gone: no such change point; the newest are .*1000rps/istio-sidecar/p50@${after}`,
      ),
    );
    assert.equal(existsSync(join(dir, 'x')), false);
  });
});

test('confirm --json and --record: a change point decided without a run; --json prints its record, --record stores it with the change point, --out is where confirmation.json goes', async () => {
  await withTempDir(async (dir) => {
    const root = join(dir, 'history');
    const after = await publishFixedStep(root);
    const store = openStore(root, { chartJs: async () => '' });
    const confirmationsFile = join(root, 'runs', 'nightly', 'confirmations.nightly.js');
    // Without --json: the verdict's line and where its file went.
    const text = await confirmCli(['--store', root, '--suite', 'nightly', '--out', 'text'], dir);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, CANNOT_RERUN);
    assert.match(text.stdout, new RegExp(`^confirmation: ${escapeRegExp(join(dir, 'text', 'confirmation.json'))}$`, 'm'));
    assert.throws(() => JSON.parse(text.stdout));
    // --json: the record, as --out's confirmation.json holds it.
    const json = await confirmCli(['--store', root, '--suite', 'nightly', '--json', '--out', 'json'], dir);
    assert.equal(json.code, 0, json.stderr);
    const printed = JSON.parse(json.stdout) as ConfirmationRecord;
    assert.deepEqual(printed, await confirmationIn(join(dir, 'json')));
    assert.deepEqual([printed.verdict, printed.reason, printed.after, printed.rounds], ['cannot-rerun', 'fixed-only', after, []]);
    assert.match(printed.line, CANNOT_RERUN);
    // Neither stored anything.
    assert.deepEqual(await store.confirmations('nightly'), []);
    assert.equal(existsSync(confirmationsFile), false);
    // --record: stored with the change point, which then waits for no verdict.
    const recorded = await confirmCli(['--store', root, '--suite', 'nightly', '--record', '--out', 'recorded'], dir);
    assert.equal(recorded.code, 0, recorded.stderr);
    const stored = await store.confirmations('nightly');
    assert.deepEqual(
      stored.map((r) => [r.verdict, r.reason, r.mode, r.metric, r.after]),
      [['cannot-rerun', 'fixed-only', 'istio-sidecar', 'p50', after]],
    );
    assert.ok(existsSync(confirmationsFile));
    const again = await confirmCli(['--store', root, '--suite', 'nightly', '--out', 'again'], dir);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /^nothing to confirm: no raised change point is waiting for a verdict \(suite nightly/);
    // --json with nothing to confirm: still JSON, for the script that asked.
    const none = await confirmCli(['--store', root, '--suite', 'nightly', '--json', '--out', 'none'], dir);
    assert.equal(none.code, 0, none.stderr);
    assert.match((JSON.parse(none.stdout) as { none: string }).none, /^no raised change point is waiting for a verdict/);
  });
});

test('confirm --max-duration: a value that is no duration is a usage error naming it; a duration is taken', async () => {
  await withTempDir(async (dir) => {
    const root = join(dir, 'history');
    await publishFixedStep(root);
    const bad = await confirmCli(['--store', root, '--suite', 'nightly', '--max-duration', 'soon', '--out', 'bad'], dir);
    assert.equal(bad.code, 2, bad.stdout);
    assert.match(bad.stderr, /--max-duration "soon": expected a duration such as "12m" or "90s"/);
    assert.equal(existsSync(join(dir, 'bad')), false);
    const good = await confirmCli(['--store', root, '--suite', 'nightly', '--max-duration', '90s', '--out', 'good'], dir);
    assert.equal(good.code, 0, good.stderr);
    assert.match(good.stdout, CANNOT_RERUN);
  });
});

test('confirm --branch reads that branch of a git store: the change point published on perf-history is found there, not on gh-pages', {
  timeout: 60_000,
}, async () => {
  await withTempDir(async (dir) => {
    const remote = join(dir, 'store.git');
    execFileSync('git', ['init', '--quiet', '--bare', remote]);
    const runs = fixedStepRuns();
    await openStore(remote, { branch: 'perf-history', chartJs: async () => '' }).publish(runs);
    // gh-pages does not exist there: a usage error naming it, never "nothing to confirm" with exit 0.
    const plain = await confirmCli(['--store', remote, '--suite', 'nightly', '--out', 'plain'], dir);
    assert.equal(plain.code, 2, plain.stdout);
    assert.match(
      plain.stderr,
      /store\.git \(branch gh-pages\): the branch does not exist, so there is nothing to confirm; pass the branch/,
    );
    assert.doesNotMatch(plain.stdout, CANNOT_RERUN);
    const branched = await confirmCli(['--store', remote, '--branch', 'perf-history', '--suite', 'nightly', '--out', 'branched'], dir);
    assert.equal(branched.code, 0, branched.stderr);
    assert.match(branched.stderr, /of .*store\.git \(branch perf-history\)/);
    assert.match(branched.stdout, CANNOT_RERUN);
    assert.equal((await confirmationIn(join(dir, 'branched'))).after, runs[STEP_AT]!.run.id);
  });
});
