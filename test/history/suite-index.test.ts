import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyIndex, indexEntryFor, parseIndex, serializeIndex, INDEX_SCHEMA_VERSION } from '../../src/history/suite-index.ts';
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
  const entry = indexEntryFor(buildRunView(result), 'runs/nightly/2025/x.json', 'runs/nightly/2025/x.html', 'b'.repeat(40));
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

test('serializeIndex writes one run per line, oldest first, and parses back', () => {
  const index = emptyIndex('nightly');
  for (const day of [3, 1, 2]) {
    const r = buildRunResult({ suite: 'nightly', seed: day, startedAt: new Date(Date.UTC(2025, 0, day)) });
    index.runs.push(
      indexEntryFor(buildRunView(r), `runs/nightly/2025/${day}.json`, `runs/nightly/2025/${day}.html`, String(day).repeat(40)),
    );
  }
  const text = serializeIndex(index);
  assert.equal(text.split('\n').filter((l) => l.startsWith('{"id"')).length, 3);
  const parsed = parseIndex(text, 'nightly');
  assert.ok(parsed.ok);
  assert.deepEqual(
    parsed.index.runs.map((r) => r.file),
    ['runs/nightly/2025/1.json', 'runs/nightly/2025/2.json', 'runs/nightly/2025/3.json'],
  );
});

test('parseIndex refuses damaged or newer indexes with a reason', () => {
  const good = JSON.parse(serializeIndex(emptyIndex('nightly')));
  const cases: { text: string; reason: RegExp }[] = [
    { text: '{"schemaVersion":1,', reason: /not valid JSON/ },
    { text: '[]', reason: /not a JSON object/ },
    { text: JSON.stringify({ ...good, schemaVersion: INDEX_SCHEMA_VERSION + 1 }), reason: /newer than this mesh-perf understands/ },
    { text: JSON.stringify({ ...good, schemaVersion: 'one' }), reason: /no valid schemaVersion/ },
    { text: JSON.stringify({ ...good, suite: 'other' }), reason: /belongs to suite "other"/ },
    { text: JSON.stringify({ ...good, runs: [{ id: 'x' }] }), reason: /malformed entry at runs\[0\]/ },
  ];
  for (const c of cases) {
    const parsed = parseIndex(c.text, 'nightly');
    assert.equal(parsed.ok, false, c.text);
    if (!parsed.ok) assert.match(parsed.reason, c.reason);
  }
});
