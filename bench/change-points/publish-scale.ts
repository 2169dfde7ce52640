// Benchmark (not a test): one day's publish into a store of 3 years of daily runs × 20 scenarios
// (5 suites × 4 load profiles × 5 modes, 1,095 runs per suite), the shape of bench/dashboard,
// timed with the planner of a given source tree, so the same store is timed before and after a
// change:
//   npx tsx bench/change-points/publish-scale.ts [--src /work/main/src] [--days 1095] [--loads 3]
// The store is held in memory: the suite indexes in full (what publish reads), the run files as
// listed names with their blob ids (publish only reads the files an index does not vouch for).
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { buildScaleStore, MemoryTree, SCALE_SHAPE } from '../../test/history/support/scale-store.ts';
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
const runs = Array.from({ length: SCALE_SHAPE.suites }, (_, s) =>
  buildRunResult({
    suite: `suite-${s + 1}`,
    seed: 99 + s,
    startedAt: new Date(start + s * 60_000),
    modes: DEFAULT_MODES.slice(0, SCALE_SHAPE.modes),
    profiles: SCALE_SHAPE.profiles,
    durationS: 5,
  }),
);
const times: number[] = [];
const cpu: number[] = [];
for (let i = 0; i < Number(values.loads); i++) {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const plan = await planPublish(new MemoryTree(files), runs, { storeLabel: 'memory', now: new Date(start), chartJs: '', scripts });
  times.push(performance.now() - t0);
  const c = process.cpuUsage(c0);
  cpu.push((c.user + c.system) / 1000);
  if (plan.added.length !== runs.length) throw new Error(`published ${plan.added.length} of ${runs.length}`);
}
times.sort((a, b) => a - b);
cpu.sort((a, b) => a - b);
console.log(
  `${src}: publish of ${runs.length} runs into ${SCALE_SHAPE.suites} suites × ${days} days × ${SCALE_SHAPE.profiles.length} profiles × ${SCALE_SHAPE.modes} modes: median ${(times[Math.floor(times.length / 2)]! / 1000).toFixed(2)} s (min ${(times[0]! / 1000).toFixed(2)}, max ${(times[times.length - 1]! / 1000).toFixed(2)}; ${times.length} loads), CPU time median ${(cpu[Math.floor(cpu.length / 2)]! / 1000).toFixed(2)} s (this process: wall time on a loaded machine overstates it)`,
);
