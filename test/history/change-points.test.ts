// Change points in a real directory store: found at the run the step starts, listed with what
// changed, moving the regression gate's reference window, and raised by publish as a gate line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DirectoryStore } from '../../src/history/directory-store.ts';
import { findBase } from '../../src/history/lookup.ts';
import { evaluateChangePointGate } from '../../src/history/change-point-gate.ts';
import { suiteChangePoints } from '../../src/history/change-points.ts';
import { indexEntryFor } from '../../src/history/suite-index.ts';
import { loadChartJsSource } from '../../src/report/html/chartjs-source.ts';
import { tempDir } from './support/git-repo.ts';
import { runCli } from './support/mesh-perf-cli.ts';
import { STEP_AT, steppedRuns } from './support/stepped-runs.ts';
import { folderStore, readIndex, storedRunPage } from './support/store-files.ts';
import { layoutOneFolder } from './support/layout-1-fixture.ts';
import { buildRunView } from '../../src/report/view.ts';

test('a store with a known step: the change point at the right run, what changed, and the reference window after it', {
  timeout: 180_000,
}, async () => {
  const dir = await tempDir('change-points');
  const root = join(dir, 'history');
  const store = new DirectoryStore({ root, chartJs: loadChartJsSource });
  const runs = steppedRuns(40);

  // Two runs after the step: too few to call it (3 per segment), so the window is the latest 10.
  await store.publish(runs.slice(0, STEP_AT + 2));
  const early = await findBase(store, 'nightly', { branch: 'main' }, 10);
  assert.equal(early?.window, undefined);
  assert.equal(early?.runs.length, 10);

  await store.publish(runs.slice(STEP_AT + 2));
  const found = await store.changePoints('nightly', 'main');
  const ratio = found.changePoints.find((cp) => cp.mode === 'istio-sidecar' && cp.metric === 'ratio');
  assert.ok(ratio, JSON.stringify(found.changePoints.map((c) => [c.mode, c.metric, c.after])));
  assert.equal(ratio.after, runs[STEP_AT]!.run.id);
  assert.equal(ratio.before, runs[STEP_AT - 1]!.run.id);
  assert.ok(ratio.size > 0.2 && ratio.size < 0.4, `size ${ratio.size}`);
  assert.ok(ratio.slower);
  assert.deepEqual(ratio.changed.mesh, { istio: ['1.29.2', '1.30.0'] });
  assert.deepEqual(ratio.changed.commits, [runs[STEP_AT - 1]!.run.git.sha, runs[STEP_AT]!.run.git.sha]);
  // Every other field that differed, read from the two runs' files: istiod's image; not k6's binary, which did not.
  assert.deepEqual(
    ratio.changed.fields?.map((f) => f.key),
    ['image@istiod/discovery'],
    JSON.stringify(ratio.changed.fields),
  );
  assert.match(ratio.changed.fields![0]!.after, /sha256:2{64}/);
  // The baseline did not move: no change point in its p50.
  assert.equal(found.changePoints.filter((cp) => cp.mode === 'baseline' && cp.metric === 'p50').length, 0);

  // The dashboard's data file carries them.
  const data = await readFile(join(root, 'runs', 'nightly', 'change-points.nightly.js'), 'utf8');
  assert.match(data, /"changePoints":\[\{/);
  assert.ok(data.includes(`"after":"${runs[STEP_AT]!.run.id}"`));
  // Stored once per pair of runs, not once per series the step moved.
  assert.equal(data.split('image@istiod/discovery').length - 1, 1);

  // The reference window starts at the first run after the step.
  const base = await findBase(store, 'nightly', { branch: 'main' }, 20);
  assert.ok(base?.window, 'a window');
  assert.equal(base.window.after, runs[STEP_AT]!.run.id);
  assert.equal(base.runs.length, 40 - STEP_AT);
  assert.ok(base.runs.every((r) => r.run.startedAt >= runs[STEP_AT]!.run.startedAt));
  assert.equal(base.window.leftOut, 20 - (40 - STEP_AT));

  // A run's page links to the change point it follows.
  const index = await readIndex(folderStore(root), 'nightly');
  const file = index.runs.find((e) => e.id === runs[35]!.run.id)!.file;
  const page = await storedRunPage(folderStore(root), file);
  assert.ok(page.includes(`#suite=nightly&amp;after=${encodeURIComponent(runs[35]!.run.id)}`), 'link to the change point');
  assert.match(page, /change point it follows/);
  // A run before the step follows no change point: its page does not offer one.
  const earlier = index.runs.find((e) => e.id === runs[5]!.run.id)!.file;
  assert.doesNotMatch(await storedRunPage(folderStore(root), earlier), /change point it follows/);
});

test('publishing the runs that complete a step raises the change-point gate line, once per series', { timeout: 180_000 }, async () => {
  const dir = await tempDir('change-point-gate');
  const root = join(dir, 'history');
  const store = new DirectoryStore({ root, chartJs: loadChartJsSource });
  const runs = steppedRuns(STEP_AT + 8);
  await store.publish(runs.slice(0, STEP_AT));
  let raisedAt = -1;
  let line = '';
  const raised = new Set<string>();
  for (let i = STEP_AT; i < runs.length; i++) {
    const outcome = await store.publish([runs[i]!]);
    const gate = evaluateChangePointGate(outcome.changePoints ?? [], 'warn', 5);
    for (const cp of gate.raised) {
      const series = `${cp.profile} ${cp.mode} ${cp.metric}`;
      assert.ok(!raised.has(series), `${series} raised again at run ${i}`);
      raised.add(series);
      assert.equal(cp.mode, 'istio-sidecar');
    }
    if (gate.raised.some((cp) => cp.metric === 'ratio')) {
      raisedAt = i;
      line = gate.lines.find((l) => l.includes('ratio'))!;
    }
  }
  assert.ok(raisedAt >= STEP_AT + 2, `raised at ${raisedAt}`);
  assert.match(
    line,
    /new change point \(slower\): 1000rps · istio-sidecar · p50 ratio to baseline on main: \+\d+\.\d% \[\+\d+\.\d%, \+\d+\.\d%\] between runs/,
  );
  assert.match(line, /istio 1\.29\.2 → 1\.30\.0/);
  assert.equal(evaluateChangePointGate([], 'fail', 5).decision, 'pass');

  // The CLI's publish prints the gate line and fails with exit 1 under gates.changePoint: fail.
  const fresh = join(dir, 'cli');
  const cliStore = new DirectoryStore({ root: fresh, chartJs: loadChartJsSource });
  await cliStore.publish(runs.slice(0, raisedAt));
  const resultsDir = join(dir, 'results');
  await mkdir(resultsDir, { recursive: true });
  await writeFile(join(resultsDir, 'results.json'), JSON.stringify(runs[raisedAt]));
  await writeFile(
    join(dir, 'mesh-perf.yaml'),
    'platform: local\nmodes:\n  - name: a\n    local: { hops: 0 }\nload: { rate: 100 }\ngates:\n  changePoint: fail\n',
  );
  const cli = await runCli(['publish', '--results', resultsDir, '--store', fresh, '--config', join(dir, 'mesh-perf.yaml')]);
  assert.equal(cli.code, 1, cli.stdout + cli.stderr);
  assert.match(cli.stderr, /new change point \(slower\): 1000rps · istio-sidecar/);
  assert.match(cli.stdout, /change-point gate \(fail\): \d+ new slowdowns?/);

  // The same with the flag and no config; a bad flag value is a usage error that publishes nothing.
  const flagged = join(dir, 'cli-flag');
  await new DirectoryStore({ root: flagged, chartJs: loadChartJsSource }).publish(runs.slice(0, raisedAt));
  const bad = await runCli(['publish', '--results', resultsDir, '--store', flagged, '--change-point', 'never']);
  assert.equal(bad.code, 2, bad.stdout + bad.stderr);
  assert.match(bad.stderr, /--change-point "never": expected warn, fail or off/);
  const flag = await runCli(['publish', '--results', resultsDir, '--store', flagged, '--change-point', 'fail']);
  assert.equal(flag.code, 1, flag.stdout + flag.stderr);
  assert.match(flag.stdout, /change-point gate \(fail\): \d+ new slowdowns?/);
});

test('bad input: too-short series are said, missing statistics skipped, duplicate run ids counted once', () => {
  const runs = steppedRuns(5);
  const entries = runs.map((r, i) => indexEntryFor(buildRunView(r), `runs/nightly/2025/${i}.js`, String(i)));
  const short = suiteChangePoints(entries);
  const sidecar = short.series.find((s) => s.mode === 'istio-sidecar' && s.metric === 'ratio')!;
  assert.equal(sidecar.skipped, '5 runs, too few to split (needs 6)');
  assert.deepEqual(short.changePoints, []);

  const long = steppedRuns(40).map((r, i) => indexEntryFor(buildRunView(r), `f${i}.js`, String(i)));
  // A run without p99 for the sidecar, and the same run id stored twice.
  delete long[10]!.modes['1000rps']!['istio-sidecar']!.s.p99;
  long.push({ ...long[20]!, file: 'dup.json' });
  const result = suiteChangePoints(long);
  const p99 = result.series.find((s) => s.mode === 'istio-sidecar' && s.metric === 'p99')!;
  assert.equal(p99.runs, 39);
  assert.equal(p99.missing, 1);
  const ratio = result.series.find((s) => s.mode === 'istio-sidecar' && s.metric === 'ratio')!;
  assert.equal(ratio.runs, 40);
  assert.deepEqual(
    ratio.changePoints.map((c) => c.after),
    [long[STEP_AT]!.id],
  );
});

test('a layout-1 store whose index was written before change points (v1) is converted, every run re-read: older runs get the new figures', {
  timeout: 120_000,
}, async () => {
  const dir = await tempDir('index-v1');
  const root = await layoutOneFolder(dir);
  const store = new DirectoryStore({ root, chartJs: loadChartJsSource });
  const path = join(root, 'runs', 'nightly', 'index.json');
  const old = JSON.parse(await readFile(path, 'utf8')) as {
    schemaVersion: number;
    runs: { modes: Record<string, Record<string, { s: Record<string, unknown> }>>; env?: unknown }[];
  };
  old.schemaVersion = 1;
  for (const run of old.runs) {
    delete run.env;
    for (const modes of Object.values(run.modes)) for (const mode of Object.values(modes)) delete mode.s.ratio;
  }
  await writeFile(path, JSON.stringify(old));
  await store.publish(steppedRuns(40).slice(38));
  const index = await readIndex(folderStore(root), 'nightly');
  assert.equal(index.schemaVersion, 3);
  assert.equal(index.runs.length, old.runs.length + 2);
  // Every run but the pull request's (the stepped runs record their Kubernetes and Istio versions).
  for (const run of index.runs.filter((r) => r.pr === undefined)) {
    assert.ok(run.modes['1000rps']!['istio-sidecar']!.s.ratio, 'ratio back');
    assert.ok(run.env, 'versions back');
  }
});

test('a corrupted index stops change points and the reference lookup loudly, naming the file; nothing is written', {
  timeout: 120_000,
}, async () => {
  const dir = await tempDir('index-corrupt');
  const root = join(dir, 'history');
  const store = new DirectoryStore({ root, chartJs: loadChartJsSource });
  const runs = steppedRuns(8);
  await store.publish(runs.slice(0, 7));
  const path = join(root, 'runs', 'nightly', 'index', '2025-01.nightly.js');
  const damaged = 'meshPerfStore.index({"schemaVersion":3,);\n';
  await writeFile(path, damaged);
  const data = await readFile(join(root, 'runs', 'nightly', 'change-points.nightly.js'), 'utf8');
  await assert.rejects(store.changePoints('nightly', 'main'), /runs\/nightly\/index\/2025-01\.nightly\.js.*not valid JSON/s);
  await assert.rejects(findBase(store, 'nightly', { branch: 'main' }, 10), /runs\/nightly\/index\/2025-01\.nightly\.js/);
  await assert.rejects(store.publish(runs.slice(7)), /runs\/nightly\/index\/2025-01\.nightly\.js/);
  assert.equal(await readFile(path, 'utf8'), damaged);
  assert.equal(await readFile(join(root, 'runs', 'nightly', 'change-points.nightly.js'), 'utf8'), data);
});
