// How a history store keeps a run (history/stored-run.ts, run-codec.ts, timeline-codec.ts): every
// stored results fixture and generated run comes back exactly as stored (numbers to 6 significant
// digits, timeline latencies on their 0.5% steps); shapes the columns do not know are stored as
// they are; a damaged file is named with what is wrong.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { canonical, decodeBody, encodeBody, withoutTimelines } from '../../src/history/run-codec.ts';
import { packedScript } from '../../src/history/store-scripts.ts';
import { NO_TIMELINES, packRun, readTimelines, restoreRun, storedForm, StoredFileError, unpackRun } from '../../src/history/stored-run.ts';
import { packTimelines, storedLatency, unpackTimelines } from '../../src/history/timeline-codec.ts';
import type { ModeResult, RunResult, TimelinePoint } from '../../src/results/types.ts';
import { buildRunResult } from '../support/results-fixture.ts';
import { loadStored, STORED_RUNS } from '../report/support/outputs.ts';

function roundTrip(run: RunResult): RunResult {
  const packed = packRun(run);
  return unpackRun(packed.body, 'runs/s/2025/x.js', { text: packed.timelines, path: 'runs/s/2025/x.tl.js' });
}

function damaged(path: string, pattern: RegExp) {
  return (error: unknown) => {
    assert.ok(error instanceof StoredFileError || (error as Error).message.includes(path), String(error));
    if (error instanceof StoredFileError) assert.equal(error.path, path);
    assert.match((error as Error).message, pattern);
    return true;
  };
}

test('every stored results fixture and generated run reads back exactly as stored', () => {
  const runs: [string, RunResult][] = [
    ...(Object.keys(STORED_RUNS) as (keyof typeof STORED_RUNS)[]).map((name) => [name, loadStored(name)] as [string, RunResult]),
    [
      'resources, two profiles, an invalid repetition',
      buildRunResult({ resources: true, profiles: ['1000rps', '100rps'], invalid: [{ mode: 'linkerd', repetition: 1 }] }),
    ],
    ['one repetition', buildRunResult({ repetitions: 1, durationS: 3 })],
  ];
  for (const [name, run] of runs) {
    const back = roundTrip(run);
    assert.equal(canonical(back), canonical(storedForm(run)), name);
    // Stored numbers are the 6 significant digits results were always stored with.
    const rep = run.modes[0]!.repetitions[0]!;
    assert.equal(back.modes[0]!.repetitions[0]!.latencyMs?.p50, rep.latencyMs ? Number(rep.latencyMs.p50.toPrecision(6)) : undefined, name);
    assert.equal(back.plan.trials.length, run.plan.trials.length, `${name}: every trial of the plan`);
  }
});

test('a stored run is a fraction of its results.json: trials implied by repetitions, repetitions as columns, compressed', () => {
  for (const run of [
    loadStored('ab-arms'),
    loadStored('gated-errors'),
    buildRunResult({ profiles: ['1000rps', '500rps', '200rps', '100rps'] }),
  ]) {
    const packed = packRun(run);
    const json = JSON.stringify(run).length;
    assert.ok(packed.body.length + packed.timelines.length < json / 3, `${packed.body.length} + ${packed.timelines.length} of ${json}`);
    assert.ok(!JSON.stringify(encodeBody(storedForm(run))).includes('"trials"'), 'no trial stored twice');
  }
});

test('timelines: latencies on 0.5% steps (stable when stored again), counts and times exact, zeros kept', () => {
  for (const v of [0.0123, 0.317392, 0.906836, 1, 23.180105, 4567.8]) {
    const s = storedLatency(v);
    assert.ok(Math.abs(s / v - 1) <= 0.0026, `${v} → ${s}`);
    assert.equal(storedLatency(s), s, `${v}: stored again, unchanged`);
  }
  assert.equal(storedLatency(0), 0);
  const points: TimelinePoint[][] = [
    [
      { t: 0, requests: 1000, failures: 0, p50: 0.9, p90: 1.2, p99: 3.1, max: 12 },
      { t: 1, requests: 998, failures: 998, p50: 0, p90: 0, p99: 0, max: 0 },
      { t: 3, requests: 1_000_000, failures: 7, p50: 0.95, p90: 1.3, p99: 3, max: 40_000 },
    ],
    [],
  ];
  const stored = points.map((p) =>
    p.map((x) => ({ ...x, p50: storedLatency(x.p50), p90: storedLatency(x.p90), p99: storedLatency(x.p99), max: storedLatency(x.max) })),
  );
  assert.deepEqual(unpackTimelines(packTimelines(stored)), stored);
  // Half-millisecond buckets cannot be packed: stored as JSON instead, and read back the same.
  const run = buildRunResult({ durationS: 3 });
  run.modes[0]!.repetitions[0]!.timeline[1]!.t = 1.0005;
  assert.equal(canonical(roundTrip(run)), canonical(storedForm(run)));
});

test('shapes the columns do not hold are stored as they are: a plan that is not implied, trials that never ran, a field of a newer schema', () => {
  const aborted = buildRunResult({ repetitions: 2 });
  aborted.plan.trials.push({ index: aborted.plan.trials.length, mode: 'baseline', profile: '1000rps', repetition: 3, block: 2 });
  aborted.run.aborted = 'cancelled';
  const body = encodeBody(storedForm(aborted));
  assert.equal(body.plan.unrun?.length, 1, 'the trial that never ran is stored');
  assert.equal(canonical(roundTrip(aborted)), canonical(storedForm(aborted)));

  const reordered = buildRunResult();
  reordered.plan.trials.reverse();
  assert.ok(encodeBody(storedForm(reordered)).plan.trials, 'trials out of index order are stored as they are');
  assert.equal(canonical(roundTrip(reordered)), canonical(storedForm(reordered)));

  // A newer schema's fields (not checked here: this version's schema would refuse them).
  const newer = buildRunResult();
  (newer.modes[1] as unknown as Record<string, unknown>).note = 'a mode field of a newer schema';
  const latency = newer.modes[0]!.repetitions[2]!.latencyMs as unknown as Record<string, number>;
  latency.p9999 = 50;
  (newer as unknown as Record<string, unknown>).comment = 'a top-level field of a newer schema';
  const stored = encodeBody(storedForm(newer));
  assert.equal((stored.modes[1] as unknown as Record<string, unknown>).note, 'a mode field of a newer schema', 'kept beside the columns');
  assert.ok(!Array.isArray(stored.modes[1]!.reps), 'a mode field does not stop its repetitions being columns');
  assert.equal(canonical(decodeBody(JSON.parse(JSON.stringify(stored)))), canonical(withoutTimelines(storedForm(newer))));
});

test("schema 6 cluster facts (a mode's mTLS policy and enrolment, a repetition's path evidence) keep the columns and read back", () => {
  const run = buildRunResult({ modes: ['baseline', 'istio-ambient'] });
  const [baseline, ambient] = run.modes as [ModeResult, ModeResult];
  baseline.mtls = { mode: 'none', source: 'no mesh' };
  ambient.mtls = { mode: 'STRICT', source: 'PeerAuthentication istio-system/default (mesh-wide)' };
  ambient.enrolment = { labels: { 'istio.io/dataplane-mode': 'ambient' }, annotations: {} };
  ambient.repetitions[1]!.path = {
    proxies: [
      {
        proxy: 'ztunnel',
        pods: 2,
        unit: 'connections',
        count: 12,
        mtls: 12,
        plaintext: 0,
        bytesReceived: 34567,
        peers: ['spiffe://cluster.local/ns/load/sa/k6'],
      },
    ],
  };
  const stored = encodeBody(storedForm(run));
  assert.ok(
    stored.modes.every((m) => !Array.isArray(m.reps)),
    'repetitions stay columns',
  );
  const back = roundTrip(run);
  assert.equal(canonical(back), canonical(storedForm(run)));
  assert.deepEqual(back.modes[1]!.enrolment, ambient.enrolment);
  assert.equal(back.modes[1]!.repetitions[0]!.path, undefined, 'no path evidence stays absent');
});

test('damaged run and timelines files are named with what is wrong', () => {
  const run = buildRunResult();
  const packed = packRun(run);
  const cases: [string, string, RegExp][] = [
    ['garbage', 'runs/s/2025/x.js', /not a mesh-perf run file/],
    [packed.body.replace(/"[A-Za-z0-9+/]{20}/, '"AAAAAAAAAAAAAAAAAAAA'), 'runs/s/2025/x.js', /is damaged: its content does not decompress/],
    [packedScript('run', 1, gzipSync('{"modes": [').toString('base64')), 'runs/s/2025/x.js', /is damaged: its content is not valid JSON/],
    [
      packedScript('run', 9, gzipSync('{}').toString('base64')),
      'runs/s/2025/x.js',
      /run file format 9, not one this mesh-perf reads \(1\); upgrade mesh-perf/,
    ],
  ];
  for (const [text, path, pattern] of cases) assert.throws(() => unpackRun(text, path), damaged(path, pattern), pattern.source);
  const other = packRun(buildRunResult({ modes: ['baseline'] }));
  assert.throws(
    () => unpackRun(packed.body, 'runs/s/2025/x.js', { text: other.timelines, path: 'runs/s/2025/x.tl.js' }),
    damaged('runs/s/2025/x.tl.js', /does not belong to runs\/s\/2025\/x\.js/),
  );
  assert.throws(() => readTimelines('meshPerfStore.timelines(1,"AAAA");', 't.tl.js'), damaged('t.tl.js', /is damaged/));
  assert.equal(readTimelines(NO_TIMELINES, 't.tl.js'), undefined, 'the stub: no timelines');
});

test('stored again (rebuild): the same bytes when nothing changed, the stub once timelines are dropped', () => {
  const packed = packRun(buildRunResult());
  const kept = restoreRun(packed.body, 'x.js', { text: packed.timelines, path: 'x.tl.js' }, true);
  assert.equal(kept.body, packed.body);
  assert.equal(kept.timelines, packed.timelines);
  const dropped = restoreRun(packed.body, 'x.js', { text: packed.timelines, path: 'x.tl.js' }, false);
  assert.equal(dropped.body, packed.body, 'the body does not change when its timelines go');
  assert.equal(dropped.timelines, NO_TIMELINES);
  assert.ok(dropped.result.modes.every((m) => m.repetitions.every((r) => r.timeline.length === 0)));
});
