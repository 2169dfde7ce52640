// Stored timelines (history/timeline-codec.ts, range-coder.ts): format 2 (range coded) reads back
// exactly what format 1 (varints under gzip) kept, in less space; format-1 files written before it
// still read (through the run file too); a damaged stream is refused rather than read as noise.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { IntegerModel, RangeDecoder, RangeEncoder } from '../../src/history/range-coder.ts';
import { canonical, timelinesOf } from '../../src/history/run-codec.ts';
import { packedScript } from '../../src/history/store-scripts.ts';
import { packRun, storedForm, TIMELINES_FORMAT, unpackRun } from '../../src/history/stored-run.ts';
import { packTimelines, packTimelinesAsVarints, storedLatency, unpackTimelines } from '../../src/history/timeline-codec.ts';
import type { TimelinePoint } from '../../src/results/types.ts';
import { buildRunResult } from '../support/results-fixture.ts';

test('range coder: integers of any size up to 2^53 − 2 come back, each model adapting on its own', () => {
  const values = [0, 1, 2, 3, 127, 128, 255, 256, 1000, 65_535, 2 ** 31, 2 ** 32 + 5, 2 ** 40 - 1, Number.MAX_SAFE_INTEGER - 1];
  const signed = [-1, 1, -1000, 123_456_789, -(2 ** 50)];
  const out = new RangeEncoder();
  const a = new IntegerModel();
  const b = new IntegerModel();
  for (let i = 0; i < 300; i++) out.uint(a, i % 7);
  for (const v of values) out.uint(b, v);
  for (const v of signed) out.int(a, v);
  const bytes = Uint8Array.from(out.finish());
  const input = new RangeDecoder(bytes, 0);
  const a2 = new IntegerModel();
  const b2 = new IntegerModel();
  for (let i = 0; i < 300; i++) assert.equal(input.uint(a2), i % 7);
  for (const v of values) assert.equal(input.uint(b2), v);
  for (const v of signed) assert.equal(input.int(a2), v);
  assert.ok(input.done(), 'every byte read');
  assert.throws(() => new RangeEncoder().uint(a, -1), /cannot code -1/);
  assert.throws(() => new RangeEncoder().uint(a, 0.5), /cannot code 0.5/);
});

test('format 2 reads back exactly what format 1 kept, and format-1 files still read', () => {
  const runs = [
    buildRunResult({ profiles: ['1000rps', '20rps'], seed: 7 }),
    buildRunResult({ repetitions: 1, durationS: 3 }),
    buildRunResult({ durationS: 120, seed: 3 }),
  ];
  for (const run of runs) {
    const timelines = timelinesOf(storedForm(run));
    assert.equal(canonical(unpackTimelines(packTimelines(timelines))), canonical(timelines));
    assert.equal(canonical(unpackTimelines(packTimelinesAsVarints(timelines))), canonical(timelines));
  }
  // Edge cases: gaps (every request failed: no latency), irregular and fractional-second times,
  // a huge count, an empty timeline, none at all.
  const odd: TimelinePoint[][] = [
    [
      { t: 0, requests: 1000, failures: 0, p50: 0.9, p90: 1.2, p99: 3.1, max: 12 },
      { t: 1, requests: 998, failures: 998, p50: 0, p90: 0, p99: 0, max: 0 },
      { t: 3.25, requests: 1_000_000, failures: 7, p50: 0.95, p90: 1.3, p99: 3, max: 40_000 },
      { t: 4.001, requests: 0, failures: 0, p50: 0, p90: 0, p99: 0, max: 0 },
    ],
    [],
    [{ t: 60, requests: 5, failures: 5, p50: 0, p90: 0, p99: 0, max: 0 }],
  ].map((points) =>
    points.map((x) => ({
      ...x,
      p50: storedLatency(x.p50),
      p90: storedLatency(x.p90),
      p99: storedLatency(x.p99),
      max: storedLatency(x.max),
    })),
  );
  assert.deepEqual(unpackTimelines(packTimelines(odd)), odd);
  assert.deepEqual(unpackTimelines(packTimelines([])), []);
});

test('format 2 is at least 12% smaller than format 1 under gzip for the bench shape (4 profiles × 5 modes × 3 repetitions × 30 s)', () => {
  let one = 0;
  let two = 0;
  for (const seed of [1, 2, 3]) {
    const run = buildRunResult({ profiles: ['1000rps', '500rps', '200rps', '100rps'], seed });
    const timelines = timelinesOf(storedForm(run));
    one += gzipSync(packTimelinesAsVarints(timelines), { level: 9 }).length;
    two += gzipSync(packTimelines(timelines), { level: 9 }).length;
  }
  assert.ok(two < one * 0.88, `format 2 ${two} bytes, format 1 ${one}`);
});

test('a run whose timelines file is in format 1 (stored before format 2) reads back the same run', () => {
  const run = buildRunResult({ profiles: ['1000rps', '100rps'] });
  const packed = packRun(run);
  const oldFile = packedScript(
    'timelines',
    TIMELINES_FORMAT,
    gzipSync(packTimelinesAsVarints(timelinesOf(storedForm(run))), { level: 9 }).toString('base64'),
  );
  assert.notEqual(oldFile, packed.timelines, 'the run is stored in format 2 now');
  const fromOld = unpackRun(packed.body, 'runs/s/2025/x.js', { text: oldFile, path: 'runs/s/2025/x.tl.js' });
  const fromNew = unpackRun(packed.body, 'runs/s/2025/x.js', { text: packed.timelines, path: 'runs/s/2025/x.tl.js' });
  assert.equal(canonical(fromOld), canonical(fromNew));
  assert.equal(canonical(fromNew), canonical(storedForm(run)));
});

test('a damaged format-2 stream is refused: cut short, bytes added, a byte changed, an unknown format', () => {
  const timelines = timelinesOf(storedForm(buildRunResult({ profiles: ['1000rps', '100rps'] })));
  const bytes = packTimelines(timelines);
  assert.throws(() => unpackTimelines(bytes.slice(0, bytes.length - 3)), /end early/);
  assert.throws(() => unpackTimelines(Uint8Array.from([...bytes, 0, 0])), /left over/);
  assert.throws(() => unpackTimelines(Uint8Array.from([9, ...bytes.slice(1)])), /timeline format 9 is not one this mesh-perf reads/);
  // A changed byte inside the coded stream decodes to other numbers; whatever it reads, it must not
  // read back the same timelines (in a run file, gzip's checksum refuses it before this).
  const changed = Uint8Array.from(bytes);
  changed[Math.floor(bytes.length / 2)]! ^= 0x55;
  let same = false;
  try {
    same = canonical(unpackTimelines(changed)) === canonical(timelines);
  } catch {
    same = false;
  }
  assert.equal(same, false);
});
