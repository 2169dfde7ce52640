// The report's "Percentiles with intervals (whiskers)" and overhead charts in Chromium: every
// whisker the page draws is read back from the canvas calls of the whiskers plugin and turned
// into data values with the chart's own axis. Each must sit on its own bar (mode and statistic)
// and span exactly that bar's interval: for three repetitions the range of the repetitions'
// values, so never below the lowest nor above the highest; a mode with one repetition (no
// interval) gets none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { BAR_STATS, buildReportChartData } from '../../src/report/html/chart-data.ts';
import { writeHtmlReport } from '../../src/report/html/write.ts';
import type { LatencyMs, RunResult } from '../../src/results/types.ts';
import { launchBrowser } from '../support/browser.ts';
import { buildRunResult } from '../support/results-fixture.ts';
import { tempDir } from '../history/support/git-repo.ts';
import { buildRunView } from '../../src/report/view.ts';

interface DrawnBar {
  dataset: string;
  index: number;
  x: number;
}
interface Whisker {
  x: number;
  low: number;
  high: number;
}
interface Drawn {
  bars: DrawnBar[];
  whiskers: Whisker[];
  /** Data units per canvas pixel on the y axis: how exact a read-back value can be. */
  unitsPerPixel: number;
}

/** Redraws a chart with the whiskers plugin's canvas calls recorded, and reads them back. */
function drawnWhiskers(page: Page, canvasId: string): Promise<Drawn> {
  return page.evaluate((id) => {
    const chart = (window as any).Chart.getChart(document.getElementById(id));
    const plugin = chart.config.plugins.find((p: any) => p.id === 'whiskers');
    const segments: number[][] = [];
    const original = plugin.afterDatasetsDraw;
    plugin.afterDatasetsDraw = function (this: unknown, ...args: unknown[]) {
      const ctx = chart.ctx as CanvasRenderingContext2D;
      let from = [0, 0];
      ctx.moveTo = function (x: number, y: number) {
        from = [x, y];
        CanvasRenderingContext2D.prototype.moveTo.call(this, x, y);
      };
      ctx.lineTo = function (x: number, y: number) {
        segments.push([from[0]!, from[1]!, x, y]);
        from = [x, y];
        CanvasRenderingContext2D.prototype.lineTo.call(this, x, y);
      };
      try {
        return original.apply(this, args);
      } finally {
        delete (ctx as unknown as Record<string, unknown>).moveTo;
        delete (ctx as unknown as Record<string, unknown>).lineTo;
      }
    };
    try {
      chart.draw();
    } finally {
      plugin.afterDatasetsDraw = original;
    }
    const y = chart.scales.y;
    const bars = chart.data.datasets.flatMap((ds: any, i: number) =>
      chart.getDatasetMeta(i).data.map((bar: any, j: number) => ({ dataset: ds.label, index: j, x: bar.x })),
    );
    const whiskers = segments
      .filter(([x1, , x2]) => Math.abs(x1! - x2!) < 1e-6)
      .map(([x, y1, , y2]) => {
        const a = y.getValueForPixel(y1);
        const b = y.getValueForPixel(y2);
        return { x: x!, low: Math.min(a, b), high: Math.max(a, b) };
      });
    return { bars, whiskers, unitsPerPixel: Math.abs(y.getValueForPixel(0) - y.getValueForPixel(1)) };
  }, canvasId);
}

type Series = { mode: string; low: (number | null)[]; high: (number | null)[] };

/** Every drawn whisker on exactly one bar, spanning that bar's interval; none where there is none. */
function assertWhiskersMatch(drawn: Drawn, series: Series[], stats: string[], chart: string): void {
  const tolerance = 1.5 * drawn.unitsPerPixel;
  const expected = series.flatMap((s) =>
    stats.flatMap((stat, j) => {
      const low = s.low[j];
      const high = s.high[j];
      return low === null || high === null || low === undefined || high === undefined || low === high
        ? []
        : [{ mode: s.mode, stat, index: j, low, high }];
    }),
  );
  assert.ok(expected.length > 0, `${chart}: the fixture gives some bar an interval`);
  assert.equal(drawn.whiskers.length, expected.length, `${chart}: one whisker per bar with an interval, none elsewhere`);
  for (const want of expected) {
    const bar = drawn.bars.find((b) => b.dataset === want.mode && b.index === want.index);
    assert.ok(bar, `${chart}: bar ${want.mode} ${want.stat} drawn`);
    const at = drawn.whiskers.filter((w) => Math.abs(w.x - bar.x) < 0.5);
    assert.equal(at.length, 1, `${chart}: ${want.mode} ${want.stat}: one whisker at its bar (x ${bar.x.toFixed(1)})`);
    const [w] = at;
    assert.ok(
      Math.abs(w!.low - want.low) <= tolerance && Math.abs(w!.high - want.high) <= tolerance,
      `${chart}: ${want.mode} ${want.stat}: whisker ${w!.low.toFixed(3)}–${w!.high.toFixed(3)}, interval ${want.low.toFixed(3)}–${want.high.toFixed(3)} (±${tolerance.toFixed(4)})`,
    );
  }
}

function fixture(): RunResult {
  const result = buildRunResult({ modes: ['baseline', 'istio-sidecar', 'linkerd'], repetitions: 3, seed: 11 });
  // linkerd ran once: its bars have no interval, so no whisker.
  const linkerd = result.modes.find((m) => m.name === 'linkerd')!;
  linkerd.repetitions = linkerd.repetitions.slice(0, 1);
  result.analysis = undefined;
  return result;
}

test('report whiskers in Chromium: each on its own bar, spanning its interval; none for one repetition', { timeout: 120_000 }, async () => {
  const dir = await tempDir('whiskers');
  const browser = await launchBrowser();
  try {
    const result = fixture();
    await writeHtmlReport(buildRunView(result), dir);
    const charts = buildReportChartData(buildRunView(result)).profiles[0]!;
    const stats = charts.bars.stats;

    // The intervals the chart is given, checked against the repetitions themselves: three
    // repetitions give the range of their values, so a whisker stays within min..max.
    for (const mode of ['baseline', 'istio-sidecar']) {
      const reps = result.modes.find((m) => m.name === mode)!.repetitions;
      const series = charts.bars.modes.find((m) => m.mode === mode)!;
      for (const [j, stat] of BAR_STATS.entries()) {
        const values = reps.map((r) => r.latencyMs![stat as keyof LatencyMs]);
        assert.equal(series.low[j], Math.min(...values), `${mode} ${stat}: low is the lowest repetition`);
        assert.equal(series.high[j], Math.max(...values), `${mode} ${stat}: high is the highest repetition`);
      }
    }

    const { page, errors } = await browser.newPage();
    await page.goto(pathToFileURL(join(dir, 'report.html')).href);
    await page.waitForFunction(() => (window as unknown as { __meshPerfReady?: boolean }).__meshPerfReady === true, undefined, {
      timeout: 15_000,
    });
    const bars = await drawnWhiskers(page, 'bars-0');
    assertWhiskersMatch(bars, charts.bars.modes, stats, 'percentile bars');
    const linkerdBars = bars.bars.filter((b) => b.dataset === 'linkerd');
    assert.equal(linkerdBars.length, stats.length);
    for (const bar of linkerdBars)
      assert.ok(!bars.whiskers.some((w) => Math.abs(w.x - bar.x) < 0.5), 'one repetition: no whisker on its bars');

    assert.ok(charts.overhead, 'the fixture has an overhead chart');
    assertWhiskersMatch(await drawnWhiskers(page, 'overhead-0'), charts.overhead.modes, charts.overhead.stats, 'overhead bars');
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    await browser.close();
    await rm(dir, { recursive: true, force: true });
  }
});
