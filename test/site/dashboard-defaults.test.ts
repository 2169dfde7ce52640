// What the trend dashboard opens on (issue 54: it opened on the alphabetically first suite and on
// p99, while the gate judges p50): the suite with the newest run, and p50. A link's own suite and
// statistic (#suite=…&stat=…) still win; test/report/dashboard-order.test.ts drives the page in Chromium.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_STAT, defaultSuite, renderDashboardHtml } from '../../src/site/dashboard/render.ts';
import type { SuiteSummaryInfo } from '../../src/history/marker.ts';

const suite = (name: string, last: string, runs = 3): SuiteSummaryInfo => ({ name, runs, last, profiles: [], modes: [], branches: [] });

test('the suite with the newest run, not the first by name; ties by more runs', () => {
  assert.equal(defaultSuite([suite('alpha-experiment', '2026-01-02T00:00:00Z'), suite('nightly', '2026-03-01T00:00:00Z')]), 'nightly');
  assert.equal(defaultSuite([suite('a', '2026-03-01T00:00:00Z', 2), suite('b', '2026-03-01T00:00:00Z', 9)]), 'b');
  assert.equal(defaultSuite([]), undefined);
});

test("the page opens on p50 and on that suite: the statistic selected, both in the script's config", () => {
  const html = renderDashboardHtml({
    marker: {
      schemaVersion: 2,
      kind: 'mesh-perf-store',
      suites: [suite('alpha-experiment', '2026-01-02T00:00:00Z'), suite('nightly', '2026-03-01T00:00:00Z')],
    },
    chartJsSrc: 'chart.js',
    storeDataSrc: 'store-data.js',
    runsPrefix: 'runs/',
    runPage: 'run.html',
  } as never);
  assert.equal(DEFAULT_STAT, 'p50');
  assert.match(html, /<option value="p50" selected>p50<\/option>/);
  assert.doesNotMatch(html, /<option value="p99" selected>/);
  assert.match(html, /"defaultSuite":"nightly"/);
  assert.match(html, /"defaultStat":"p50"/);
  // The script opens on them unless the link names others.
  assert.match(html, /state\.stat \|\| config\.defaultStat/);
  assert.match(html, /config\.defaultSuite \|\| config\.suites\[0\]\.name/);
});
