// Runs published out of order, and the dashboard data a store wrote for a suite: shared by the
// publish-order test and its Chromium check.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import type { RunResult } from '../../src/results/types.ts';
import { buildDailyRuns } from './results-fixture.ts';

/** Nov 1–14, published in three batches out of order: 10–14, then 2–9 reversed, then Nov 1 late. */
export function outOfOrderBatches(): RunResult[][] {
  const runs = buildDailyRuns(14, { suite: 'nightly', start: new Date(Date.UTC(2025, 10, 1, 3)) });
  return [runs.slice(9), runs.slice(1, 9).reverse(), [runs[0]!]];
}

export async function suiteData(site: string, suite: string): Promise<{ runs: { id: string; startedAt: string }[] }> {
  const sandbox = { window: {} as { meshPerfData?: Record<string, unknown> } };
  runInNewContext(await readFile(join(site, 'data', `${suite}.js`), 'utf8'), sandbox);
  // Through JSON: the vm's arrays are of another realm, which deepStrictEqual tells apart.
  return JSON.parse(JSON.stringify(sandbox.window.meshPerfData![suite])) as { runs: { id: string; startedAt: string }[] };
}
