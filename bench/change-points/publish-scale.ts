// Benchmark (not a test): one day's publish into a store of 3 years of daily runs × 20 scenarios
// (5 suites × 4 load profiles × 5 modes, 1,095 runs per suite), the shape of bench/dashboard,
// timed with the planner of a given source tree, so the same store is timed before and after a
// change:
//   npx tsx bench/change-points/publish-scale.ts [--src /work/main/src] [--days 1095] [--loads 3]
// The store is held in memory: the suite indexes in full, the run files as listed names with
// their blob ids (publish only reads the files an index does not vouch for). Two figures: the
// first publish into it reads every shard (the store has no settled-months files, as a branch
// written before them), and writes those files; the day after, into the store as that publish
// left it, reads the settled-months files and the recent shards only (what a daily publish does).
// A planner from before the settled-months files reads every shard both times.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { parseTimelineRetention } from '../../src/history/retention.ts';
import { fileMonth } from '../../src/history/settled.ts';
import { NO_TIMELINES } from '../../src/history/stored-run.ts';
import { gitBlobId } from '../../src/history/tree.ts';
import { buildScaleStore, MemoryTree, SCALE_SHAPE, type StoreFiles } from '../../test/history/support/scale-store.ts';
import { buildRunResult, DEFAULT_MODES } from '../../test/support/results-fixture.ts';

const { values } = parseArgs({
  options: { src: { type: 'string', default: 'src' }, days: { type: 'string', default: '1095' }, loads: { type: 'string', default: '3' } },
});
const src = resolve(values.src);
const { planPublish } = (await import(
  pathToFileURL(`${src}/history/publish-plan.ts`).href
)) as typeof import('../../src/history/publish-plan.ts');
// A planner from before history layout 2 reads a layout-1 store, and has no site scripts.
const layout2 = 'serializeShard' in (await import(pathToFileURL(`${src}/history/suite-index.ts`).href));
const scripts = layout2 ? await (await import(pathToFileURL(`${src}/site/scripts.ts`).href)).loadSiteScripts() : undefined;
const days = Number(values.days);
const files = buildScaleStore({ ...SCALE_SHAPE, days }, layout2 ? 2 : 1);
const start = Date.UTC(2023, 0, 1, 2, 0, 0) + days * 86_400_000;
// As bench/dashboard keeps them (history.keepTimelines 30d): older runs' timelines files are the stub.
const timelineRetention = parseTimelineRetention('30d')!;
const stub = gitBlobId(NO_TIMELINES);
for (const path of files.blobs.keys()) {
  const month = fileMonth(path);
  if (path.endsWith('.tl.js') && month !== undefined && `${month}-31` < new Date(start - 40 * 86_400_000).toISOString().slice(0, 10))
    files.blobs.set(path, stub);
}
/** The runs of the day `offset` days after the store's last. */
const runsOf = (offset: number) =>
  Array.from({ length: SCALE_SHAPE.suites }, (_, s) =>
    buildRunResult({
      suite: `suite-${s + 1}`,
      seed: 99 + s + offset * 10,
      startedAt: new Date(start + offset * 86_400_000 + s * 60_000),
      modes: DEFAULT_MODES.slice(0, SCALE_SHAPE.modes),
      profiles: SCALE_SHAPE.profiles,
      durationS: 5,
    }),
  );
/** Index shards the last plan read (the path it took: every shard, or the recent ones). */
let shardsRead = 0;
class CountingTree extends MemoryTree {
  override async readMany(paths: string[]): Promise<Map<string, string>> {
    shardsRead += paths.filter((p) => p.includes('/index/')).length;
    return super.readMany(paths);
  }
}
const plan = (store: StoreFiles, day: ReturnType<typeof runsOf>, offset: number) => {
  shardsRead = 0;
  return planPublish(new CountingTree(store), day, {
    storeLabel: 'memory',
    now: new Date(start + offset * 86_400_000),
    chartJs: '',
    scripts,
    timelineRetention,
  });
};

async function timed(label: string, store: StoreFiles, day: ReturnType<typeof runsOf>, offset: number): Promise<void> {
  const times: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < Number(values.loads); i++) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const planned = await plan(store, day, offset);
    times.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
    if (planned.added.length !== day.length) throw new Error(`published ${planned.added.length} of ${day.length}`);
  }
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  console.log(
    `${label}, ${shardsRead} index shards read: median ${(times[Math.floor(times.length / 2)]! / 1000).toFixed(2)} s (min ${(times[0]! / 1000).toFixed(2)}, max ${(times[times.length - 1]! / 1000).toFixed(2)}; ${times.length} loads), CPU time median ${(cpu[Math.floor(cpu.length / 2)]! / 1000).toFixed(2)} s`,
  );
}

/** The store after `changes`: written files hold their text under their git blob id, as on a branch. */
function applied(store: StoreFiles, changes: { writes: Map<string, string>; deletes: Set<string> }): StoreFiles {
  const texts = new Map(store.texts);
  const blobs = new Map(store.blobs);
  for (const [path, text] of changes.writes) {
    texts.set(path, text);
    blobs.set(path, gitBlobId(text));
  }
  for (const path of changes.deletes) {
    texts.delete(path);
    blobs.delete(path);
  }
  return { texts, blobs };
}

console.log(
  `${src}: publish of ${SCALE_SHAPE.suites} runs into ${SCALE_SHAPE.suites} suites × ${days} days × ${SCALE_SHAPE.profiles.length} profiles × ${SCALE_SHAPE.modes} modes (CPU time of this process; wall time on a loaded machine overstates it)`,
);
const first = runsOf(0);
await timed('  first publish (reads every shard, writes the settled-months files)', files, first, 0);
const after = applied(files, (await plan(files, first, 0)).changes);
await timed('  the day after (settled-months files and recent shards)', after, runsOf(1), 1);
