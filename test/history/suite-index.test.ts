import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  byMonth,
  indexEntryFor,
  parseShard,
  serializeShard,
  INDEX_SCHEMA_VERSION,
  type IndexEntry,
} from '../../src/history/suite-index.ts';
import { parseJsonScript } from '../../src/history/store-scripts.ts';
import { buildRunResult } from '../support/results-fixture.ts';
import { buildRunView } from '../../src/report/view.ts';

test('index entries carry git facts, validity and per-mode medians with intervals', () => {
  const result = buildRunResult({
    suite: 'nightly',
    sha: 'a'.repeat(40),
    branch: 'main',
    event: 'push',
    invalid: [{ mode: 'linkerd', repetition: 0 }],
  });
  const entry = indexEntryFor(buildRunView(result), 'runs/nightly/2025/x.js', 'b'.repeat(40));
  assert.equal(entry.sha, 'a'.repeat(40));
  assert.equal(entry.branch, 'main');
  assert.equal(entry.event, 'push');
  assert.equal(entry.verdict, 'invalid');
  assert.equal(entry.invalidReps, 1);
  const linkerd = entry.modes['1000rps']!['linkerd']!;
  assert.equal(linkerd.n, 3);
  assert.equal(linkerd.valid, 2);
  const [median, low, high] = entry.modes['1000rps']!['baseline']!.s.p99!;
  assert.ok(low <= median && median <= high, `${low} ≤ ${median} ≤ ${high}`);
});

test('a shard writes one run per line, oldest first, and parses back to the same entries', () => {
  const entries: IndexEntry[] = [];
  for (const day of [3, 1, 2]) {
    const r = buildRunResult({ suite: 'nightly', seed: day, startedAt: new Date(Date.UTC(2025, 0, day)) });
    entries.push(indexEntryFor(buildRunView(r), `runs/nightly/2025/${day}.js`, String(day).repeat(40)));
  }
  const text = serializeShard('nightly', '2025-01', entries);
  assert.equal(text.split('\n').filter((l) => l.startsWith('{"id"')).length, 3);
  const parsed = parseShard(text, 'nightly', '2025-01');
  assert.ok(parsed.ok);
  assert.deepEqual(
    parsed.entries.map((r) => r.file),
    ['runs/nightly/2025/1.js', 'runs/nightly/2025/2.js', 'runs/nightly/2025/3.js'],
  );
  const byDay = new Map(entries.map((e) => [e.file, e]));
  for (const e of parsed.entries) assert.deepEqual(e, byDay.get(e.file), 'figures read back exactly');
  assert.deepEqual([...byMonth(entries).keys()], ['2025-01']);
});

test('parseShard refuses damaged, misplaced or newer shards with a reason', () => {
  const good = parseJsonScript(serializeShard('nightly', '2025-01', []), 'index');
  assert.ok(good.ok);
  const doc = good.value as Record<string, unknown>;
  const script = (value: unknown) => `meshPerfStore.index(${JSON.stringify(value)});\n`;
  const r = buildRunResult({ suite: 'nightly', startedAt: new Date(Date.UTC(2025, 1, 2)) });
  const february = indexEntryFor(buildRunView(r), 'runs/nightly/2025/x.js', 'b'.repeat(40));
  const cases: { text: string; reason: RegExp }[] = [
    { text: 'meshPerfStore.index({"schemaVersion":3,);', reason: /not valid JSON/ },
    { text: '{"schemaVersion":3}', reason: /not a mesh-perf index shard/ },
    { text: script([]), reason: /not a JSON object/ },
    { text: script({ ...doc, schemaVersion: INDEX_SCHEMA_VERSION + 1 }), reason: /newer than this mesh-perf understands/ },
    { text: script({ ...doc, schemaVersion: 'one' }), reason: /no valid schemaVersion/ },
    { text: script({ ...doc, suite: 'other' }), reason: /belongs to suite "other"/ },
    { text: script({ ...doc, month: '2025-02' }), reason: /is for month "2025-02", expected "2025-01"/ },
    { text: script({ ...doc, runs: [{ id: 'x' }] }), reason: /malformed entry at runs\[0\]/ },
    {
      text: serializeShard('nightly', '2025-01', [february]).replace('"month":"2025-01"', '"month":"2025-01"'),
      reason: /started in 2025-02, not 2025-01/,
    },
  ];
  for (const c of cases) {
    const parsed = parseShard(c.text, 'nightly', '2025-01');
    assert.equal(parsed.ok, false, c.text);
    if (!parsed.ok) assert.match(parsed.reason, c.reason);
  }
});
