// A publish that reads only the recent shards and the settled-months file (history/settled.ts)
// writes exactly what a publish that reads every shard writes: the same shards, change points,
// marker, pages and settled-months file, and finds the same new change points, day after day over
// more than a year (two branches, one of them rare, a step in one mode, timelines dropped after
// 30 days). A missing file is rebuilt by one full read; anything changed under the suite makes the
// publish read every shard again; a damaged shard or settled-months file stops it, named.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StoreCorruptError } from '../../src/history/errors.ts';
import { shardPath } from '../../src/history/layout.ts';
import { type PublishPlan, planPublish } from '../../src/history/publish-plan.ts';
import { parseSettled, settledPath } from '../../src/history/settled.ts';
import { gitBlobId, type StoreTree } from '../../src/history/tree.ts';
import type { RunResult } from '../../src/results/types.ts';
import { loadSiteScripts } from '../../src/site/scripts.ts';
import { buildRunResult } from '../support/results-fixture.ts';

const SUITE = 'nightly';
const START = Date.UTC(2024, 0, 1, 3, 0, 0);
const DAYS = 460;
const STEP_DAY = 420;

/** A store in memory with real blob ids, recording which shards a plan read. */
class MemoryStore implements StoreTree {
  readonly texts = new Map<string, string>();
  readShards = new Set<string>();

  async list(prefix: string): Promise<string[]> {
    return [...this.texts.keys()].filter((p) => p.startsWith(prefix)).sort();
  }
  async blob(path: string): Promise<string | undefined> {
    const text = this.texts.get(path);
    return text === undefined ? undefined : gitBlobId(text);
  }
  async read(path: string): Promise<string | undefined> {
    if (path.includes('/index/')) this.readShards.add(path);
    return this.texts.get(path);
  }
  async readMany(paths: string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const p of paths) {
      const text = await this.read(p);
      if (text !== undefined) out.set(p, text);
    }
    return out;
  }
  copy(): MemoryStore {
    const other = new MemoryStore();
    for (const [p, t] of this.texts) other.texts.set(p, t);
    return other;
  }
  apply(plan: PublishPlan): void {
    for (const [p, t] of plan.changes.writes) this.texts.set(p, t);
    for (const p of plan.changes.deletes) this.texts.delete(p);
  }
}

function runOfDay(day: number): RunResult {
  const run = buildRunResult({
    suite: SUITE,
    seed: day + 1,
    startedAt: new Date(START + day * 86_400_000),
    modes: ['baseline', 'istio-sidecar'],
    repetitions: 1,
    durationS: 2,
    branch: day % 11 === 5 ? 'release' : 'main',
    sha: day.toString(16).padStart(40, 'a'),
  });
  if (day >= STEP_DAY) {
    for (const rep of run.modes[1]!.repetitions) {
      const latency = rep.latencyMs as unknown as Record<string, number>;
      for (const k of Object.keys(latency)) latency[k] = latency[k]! * 1.4;
    }
  }
  return run;
}

const scripts = await loadSiteScripts();
const optionsFor = (day: number) => ({
  storeLabel: 'memory',
  now: new Date(START + day * 86_400_000 + 3_600_000),
  chartJs: '// chart.js',
  scripts,
  timelineRetention: { kind: 'age' as const, days: 30 },
});

/**
 * The full read's plan against the recent read's: the same writes and deletes, except that the full
 * read (run on a copy without the settled-months file) writes that file even when the recent read
 * leaves it as it is: then it writes what the branch already holds.
 */
function sameChanges(fast: PublishPlan, full: PublishPlan, stored: string | undefined, day: number): void {
  const settled = settledPath(SUITE);
  const others = (plan: PublishPlan) => [...plan.changes.writes.keys()].filter((p) => p !== settled).sort();
  assert.deepEqual(others(fast), others(full), `day ${day}: the same files written`);
  for (const path of others(full)) assert.equal(fast.changes.writes.get(path), full.changes.writes.get(path), `day ${day}: ${path}`);
  assert.equal(full.changes.writes.get(settled), fast.changes.writes.get(settled) ?? stored, `day ${day}: the same settled-months file`);
  assert.deepEqual([...fast.changes.deletes].sort(), [...full.changes.deletes].sort(), `day ${day}: the same files deleted`);
  assert.deepEqual(fast.newChangePoints, full.newChangePoints, `day ${day}: the same new change points`);
  assert.deepEqual(fast.warnings, full.warnings, `day ${day}: the same warnings`);
}

test('reading the recent shards and the settled months gives what reading every shard gives, every day for 460 days', async () => {
  const store = new MemoryStore();
  let mostRead = 0;
  let newChangePoints = 0;
  for (let day = 0; day < DAYS; day++) {
    const runs = [runOfDay(day)];
    store.readShards = new Set();
    const fast = await planPublish(store, runs, optionsFor(day));
    const read = [...store.readShards].filter((p) => !p.includes('settled.'));
    const shards = (await store.list(`runs/${SUITE}/index/`)).filter((p) => !p.includes('settled.'));
    // Past the first months, a publish reads the newest month's shard, the one before and at most
    // one more (a month still holding timelines of the last 30 days).
    if (day >= 90) mostRead = Math.max(mostRead, read.length);
    if (day === DAYS - 1) assert.ok(shards.length >= 13, `${shards.length} shards`);
    // Compared on the days that matter (month ends and starts, the step, the last weeks) and every 7th.
    const day0 = new Date(START + day * 86_400_000).getUTCDate();
    if (day % 10 === 0 || day0 === 1 || day0 >= 30 || (day >= STEP_DAY && day < STEP_DAY + 6) || day >= DAYS - 8) {
      const withoutSettled = store.copy();
      withoutSettled.texts.delete(settledPath(SUITE));
      const full = await planPublish(withoutSettled, runs, optionsFor(day));
      sameChanges(fast, full, store.texts.get(settledPath(SUITE)), day);
    }
    newChangePoints += fast.newChangePoints.length;
    store.apply(fast);
  }
  assert.ok(mostRead > 0 && mostRead <= 3, `at most ${mostRead} shards read a day`);
  assert.ok(newChangePoints > 0, 'the step made a change point appear');
  const parsed = parseSettled(store.texts.get(settledPath(SUITE))!, SUITE);
  assert.equal(parsed.ok, true);
  if (parsed.ok !== true) return;
  // The tail holds the newest 365 settled main runs (older ones left it) and every release run.
  const main = parsed.settled.tail.filter((r) => r.branch === 'main').length;
  assert.equal(main, 365);
  assert.ok(parsed.settled.trend.main!.runs > main, `the settled months count every main run (${parsed.settled.trend.main!.runs})`);
  assert.equal(parsed.settled.tail.filter((r) => r.branch === 'release').length, parsed.settled.trend.release!.runs);
});

test('a missing settled-months file is rebuilt by one full read; a changed run file makes a publish read every shard', async () => {
  const store = new MemoryStore();
  for (let day = 0; day < 75; day++) store.apply(await planPublish(store, [runOfDay(day)], optionsFor(day)));
  const shards = (await store.list(`runs/${SUITE}/index/`)).filter((p) => !p.includes('settled.'));
  assert.ok(shards.length >= 3);

  store.texts.delete(settledPath(SUITE));
  store.readShards = new Set();
  const rebuilt = await planPublish(store, [runOfDay(75)], optionsFor(75));
  assert.equal(shards.filter((p) => store.readShards.has(p)).length, shards.length, 'every shard read');
  assert.ok(rebuilt.changes.writes.has(settledPath(SUITE)), 'the settled-months file written again');
  store.apply(rebuilt);

  store.readShards = new Set();
  store.apply(await planPublish(store, [runOfDay(76)], optionsFor(76)));
  assert.ok(shards.filter((p) => store.readShards.has(p)).length <= 2, `then only the recent shards: ${[...store.readShards].join(', ')}`);

  // A run that reuses a settled run's id (a re-run published later): every shard is read, and the
  // earlier file of that id is replaced, as a full read does.
  const rerun = runOfDay(76);
  const first = runOfDay(3);
  rerun.run.id = first.run.id;
  const again = store.copy();
  const replaced = await planPublish(again, [rerun], optionsFor(76));
  assert.equal(shards.filter((p) => again.readShards.has(p)).length, shards.length, 'every shard read for a settled id');
  assert.ok(
    [...replaced.changes.deletes].some((p) => p.startsWith(`runs/${SUITE}/2024/20240104`)),
    [...replaced.changes.deletes].join(', '),
  );

  // A run file of a settled month removed by hand: the next publish reads every shard and says so.
  const old = (await store.list(`runs/${SUITE}/2024/`)).find((p) => p.endsWith('.js') && !p.endsWith('.tl.js'))!;
  store.texts.delete(old);
  store.readShards = new Set();
  const plan = await planPublish(store, [runOfDay(77)], optionsFor(77));
  assert.equal(shards.filter((p) => store.readShards.has(p)).length, shards.length, 'every shard read');
  assert.ok(
    plan.warnings.some((w) => w.includes(old) && w.includes('missing')),
    plan.warnings.join('\n'),
  );
});

test('a damaged shard of a settled month, or a damaged settled-months file, stops the publish naming it', async () => {
  const store = new MemoryStore();
  for (let day = 0; day < 70; day++) store.apply(await planPublish(store, [runOfDay(day)], optionsFor(day)));
  const oldShard = shardPath(SUITE, '2024-01');
  assert.ok(store.texts.has(oldShard));

  const damagedShard = store.copy();
  damagedShard.texts.set(oldShard, damagedShard.texts.get(oldShard)!.replace('"runs":[', '"runs":[{'));
  await assert.rejects(
    planPublish(damagedShard, [runOfDay(70)], optionsFor(70)),
    (error: unknown) => error instanceof StoreCorruptError && error.message.includes(oldShard) && error.exitCode === 3,
  );

  const damagedSettled = store.copy();
  damagedSettled.texts.set(settledPath(SUITE), damagedSettled.texts.get(settledPath(SUITE))!.slice(0, 200));
  await assert.rejects(
    planPublish(damagedSettled, [runOfDay(70)], optionsFor(70)),
    (error: unknown) => error instanceof StoreCorruptError && error.message.includes(settledPath(SUITE)) && error.exitCode === 3,
  );
});
