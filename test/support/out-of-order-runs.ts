// Runs published out of order, and the dashboard data a store wrote for a suite: shared by the
// publish-order test and its Chromium check.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseShard } from '../../src/history/suite-index.ts';
import type { RunResult } from '../../src/results/types.ts';
import { buildDailyRuns } from './results-fixture.ts';

/** Nov 1–14, published in three batches out of order: 10–14, then 2–9 reversed, then Nov 1 late. */
export function outOfOrderBatches(): RunResult[][] {
  const runs = buildDailyRuns(14, { suite: 'nightly', start: new Date(Date.UTC(2025, 10, 1, 3)) });
  return [runs.slice(9), runs.slice(1, 9).reverse(), [runs[0]!]];
}

/**
 * The dashboard's data of a suite as the store holds them: every index shard's runs in stored
 * order, months in order (the page draws lines and bands in this order).
 */
export async function suiteData(site: string, suite: string): Promise<{ runs: { id: string; startedAt: string }[] }> {
  const dir = join(site, 'runs', suite, 'index');
  const runs: { id: string; startedAt: string }[] = [];
  for (const name of (await readdir(dir)).sort()) {
    const month = name.slice(0, 7);
    const parsed = parseShard(await readFile(join(dir, name), 'utf8'), suite, month);
    if (!parsed.ok) throw new Error(`${name} ${parsed.reason}`);
    runs.push(...parsed.entries.map((e) => ({ id: e.id, startedAt: e.startedAt })));
  }
  return { runs };
}
