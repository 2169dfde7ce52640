import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRetention, parseTimelineRetention, prunedEntries } from '../../src/history/retention.ts';
import type { IndexEntry } from '../../src/history/suite-index.ts';
import { MeshPerfError } from '../../src/util/errors.ts';

function entry(id: string, startedAt: string): IndexEntry {
  return {
    id,
    file: `runs/s/2025/${id}.js`,
    blob: 'x',
    v: 1,
    startedAt,
    verdict: 'pass',
    platform: 'local',
    invalidReps: 0,
    baseline: 'b',
    modes: {},
  };
}

test('parseRetention accepts days and run counts, rejects the rest with the value named', () => {
  assert.deepEqual(parseRetention('365d'), { kind: 'age', days: 365 });
  assert.deepEqual(parseRetention('1000runs'), { kind: 'count', runs: 1000 });
  for (const bad of ['', '0d', '12', '3w', '-1runs', '1.5d', '10 runs']) {
    assert.throws(
      () => parseRetention(bad),
      (e: unknown) => e instanceof MeshPerfError && e.exitCode === 2 && e.message.includes(JSON.stringify(bad)),
      bad,
    );
  }
});

test('prunedEntries keeps the newest N, or drops runs older than the age limit', () => {
  const entries = [entry('a', '2025-01-01T00:00:00Z'), entry('c', '2025-03-01T00:00:00Z'), entry('b', '2025-02-01T00:00:00Z')];
  const now = new Date('2025-03-02T00:00:00Z');
  const table: { keep: string; pruned: string[] }[] = [
    { keep: '2runs', pruned: ['a'] },
    { keep: '1runs', pruned: ['b', 'a'] },
    { keep: '5runs', pruned: [] },
    { keep: '20d', pruned: ['b', 'a'] },
    { keep: '30d', pruned: ['a'] },
    { keep: '45d', pruned: ['a'] },
    { keep: '365d', pruned: [] },
  ];
  for (const row of table) {
    assert.deepEqual(
      prunedEntries(entries, parseRetention(row.keep), now).map((e) => e.id),
      row.pruned,
      row.keep,
    );
  }
});

test('parseTimelineRetention: "all" keeps timelines, "none" never stores them, otherwise like keep', () => {
  assert.equal(parseTimelineRetention('all'), undefined);
  assert.deepEqual(parseTimelineRetention('30d'), { kind: 'age', days: 30 });
  assert.deepEqual(parseTimelineRetention('100runs'), { kind: 'count', runs: 100 });
  assert.deepEqual(parseTimelineRetention('none'), { kind: 'count', runs: 0 });
  assert.throws(
    () => parseTimelineRetention('forever'),
    (e: unknown) => e instanceof MeshPerfError && e.exitCode === 2 && /"all"/.test(e.message) && e.message.includes('"forever"'),
  );
});
