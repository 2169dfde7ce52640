// Pure renderers: the results view, job summary, PR comment body, annotations, base comparison.
// Input: a real results.json (fixtures/README.md says how it was captured), with and without the
// analysis block that the real analysis stage computes from it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { readUntrustedResults } from '../../src/github/untrusted-results.ts';
import { join } from 'node:path';
import type { RunResult } from '../../src/results/types.ts';
import { validateConfig } from '../../src/config/validate.ts';
import { buildRunView as viewRun } from '../../src/report/view.ts';
import { tableRows } from '../../src/github/tables.ts';
import { renderJobSummary } from '../../src/github/job-summary.ts';
import { COMMENT_LIMIT, commentMarker, renderComment } from '../../src/github/comment-body.ts';
import { annotationsFor } from '../../src/github/annotations.ts';
import { median } from '../../src/analysis/descriptive.ts';
import { analyzeWorded, syntheticRun, testConfig } from '../analysis/synthetic.ts';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'results-local-pass.json');
const load = (): RunResult => JSON.parse(readFileSync(FIXTURE, 'utf8')) as RunResult;
const RUN_URL = 'https://github.test/octo/mesh/actions/runs/77';

function analyzed(thresholds: string[] = ['p(50) < 0.0001ms'], overhead: string[] = ['overhead.p50 < 100ms']): RunResult {
  const result = load();
  const config = validateConfig({
    platform: 'local',
    modes: [{ name: 'direct' }, { name: 'one-hop' }],
    baseline: 'direct',
    load: { rate: 50, duration: '2s', repetitions: 2 },
    gates: { thresholds, overhead },
  });
  const analysis = analyzeWorded(result, { config, resamples: 200 });
  result.analysis = analysis;
  result.verdict = analysis.verdict;
  result.verdictReasons = analysis.verdictReasons;
  return result;
}

const p50s = (result: RunResult, mode: string) =>
  result.modes
    .find((m) => m.name === mode)!
    .repetitions.filter((r) => r.valid)
    .map((r) => r.latencyMs!.p50);

test('without an analysis block the view falls back to medians and ranges over valid repetitions', () => {
  const result = load();
  const view = viewRun(result);
  assert.equal(view.analysis, undefined);
  assert.deepEqual(
    tableRows(view).map((m) => m.mode),
    ['direct', 'one-hop'],
    'baseline first, then config order',
  );
  const hop = view.modes.find((m) => m.mode === 'one-hop')!;
  const values = p50s(result, 'one-hop');
  // Two values: the order-statistic interval of their median is their range.
  assert.equal(hop.latency.p50!.interval, 'order');
  assert.equal(hop.latency.p50!.value, median(values));
  assert.equal(hop.latency.p50!.low, Math.min(...values));
  assert.equal(hop.latency.p50!.high, Math.max(...values));
  // Paired by interleaved block, as report.html and the analysis pair them.
  const direct = p50s(result, 'direct');
  const blocks = (mode: string) => result.modes.find((m) => m.name === mode)!.repetitions.map((r) => `${r.round}:${r.block}`);
  assert.deepEqual(blocks('one-hop'), blocks('direct'));
  assert.equal(hop.overhead.p50!.difference.value, median(values.map((v, i) => v - direct[i]!)));
  assert.equal(view.gates.length, 0);
  assert.match(renderJobSummary({ view, links: {} }), /brackets give the range over repetitions/);
});

test('with the analysis block the view shows its confidence intervals, overheads and gate decisions', () => {
  const result = analyzed();
  const analysis = result.analysis as ReturnType<typeof analyzeWorded>;
  const view = viewRun(result);
  assert.ok(view.analysis);
  const hop = view.modes.find((m) => m.mode === 'one-hop')!;
  const stat = analysis.summaries.find((s) => s.mode === 'one-hop')!.statistics.p50!;
  const p50 = hop.latency.p50!;
  assert.deepEqual([p50.value, p50.low, p50.high, p50.interval], [stat.median, stat.ci!.low, stat.ci!.high, 'bootstrap']);
  const overhead = analysis.overheads.find((o) => o.mode === 'one-hop' && o.metric === 'p50')!;
  const difference = hop.overhead.p50!.difference;
  assert.deepEqual([difference.value, difference.low], [overhead.difference.value, overhead.difference.ci!.low]);
  assert.equal(view.gates.filter((g) => g.decision === 'fail').length, analysis.gates.filter((g) => g.decision === 'fail').length);
  assert.equal(view.verdict, 'fail');

  const summary = renderJobSummary({
    view,
    links: { runUrl: RUN_URL, artifactUrl: `${RUN_URL}#artifacts`, dashboardUrl: 'https://octo.github.io/mesh/' },
  });
  // 2 repetitions a mode: the brackets are their range (covers the median 50%), not a 95% CI.
  assert.match(
    summary,
    /Values are medians over repetitions\. With 2 repetitions an interval of the median is the range of the repetitions \(min–max\), which covers the true median 50\.0% of the time, not 95%/,
  );
  assert.doesNotMatch(summary, /95% confidence intervals in brackets/);
  assert.match(summary, /### Gates/);
  assert.ok(summary.includes('[Trend dashboard](https://octo.github.io/mesh/)'));
  assert.ok(summary.includes(`[Results and HTML report (artifact)](${RUN_URL}#artifacts)`));
  assert.ok(summary.includes('| ❌ fail | p(50) &lt; 0.0001ms | one-hop · 50rps |'), 'the failed gate row, escaped');
  assert.ok(view.reasons.length > 0);
});

test('annotations: one error per failed gate, one warning per invalid repetition', () => {
  const result = analyzed(['p(50) < 0.0001ms', 'p(99) < 100000ms']);
  const rep = result.modes[0]!.repetitions[0]!;
  rep.valid = false;
  rep.invalidReasons = ['3 dropped iterations'];
  const view = viewRun(result);
  const list = annotationsFor(view);
  const failed = (result.analysis as ReturnType<typeof analyzeWorded>).gates.filter((g) => g.decision === 'fail');
  assert.ok(failed.length >= 2);
  assert.equal(list.filter((a) => a.level === 'error').length, failed.length);
  assert.equal(list.filter((a) => a.level === 'warning').length, 1);
  assert.match(list.find((a) => a.level === 'warning')!.message, /3 dropped iterations/);
});

test("annotations: a comparison that is reported, not gated, but would be a regression (the baseline's raw values) is a warning, not an error", () => {
  const config = testConfig();
  const steady = [1.0, 1.02, 0.98, 1.01, 0.99];
  const reference = [0, 1, 2].map((i) =>
    syntheticRun({
      config,
      id: `past-${i}`,
      startedAt: new Date(Date.UTC(2025, 11, 1 + i)).toISOString(),
      levels: { baseline: steady, sidecar: steady.map((l) => l * 1.3) },
    }),
  );
  const result = syntheticRun({
    config,
    id: 'candidate',
    levels: { baseline: steady.map((l) => l * 1.3), sidecar: steady.map((l) => l * 1.3 * 1.3) },
  });
  const analysis = analyzeWorded(result, { config, reference, resamples: 200 });
  result.analysis = analysis;
  result.verdict = analysis.verdict;
  result.verdictReasons = analysis.verdictReasons;
  assert.equal(analysis.verdict, 'pass');
  const list = annotationsFor(viewRun(result));
  assert.equal(list.filter((a) => a.level === 'error').length, 0);
  const warnings = list.filter((a) => a.level === 'warning');
  assert.equal(warnings.length, 1, JSON.stringify(list));
  assert.match(warnings[0]!.title, /^mesh-perf not gated, would be a regression: regression p\(50\)/);
  assert.match(warnings[0]!.message, /^baseline · 1000rps: .*would be a regression.*the baseline's raw values move with the runner/);
});

test('a fail verdict without gate details still gets one error per reason', () => {
  const result = load();
  result.verdict = 'fail';
  result.verdictReasons = [
    'script threshold failed: direct: http_req_duration p(50)<1',
    'script threshold failed: one-hop: http_req_duration p(50)<1',
  ];
  assert.equal(annotationsFor(viewRun(result)).filter((a) => a.level === 'error').length, 2);
  result.verdictReasons = ['some other reason'];
  assert.equal(annotationsFor(viewRun(result)).filter((a) => a.level === 'error').length, 1);
});

test('failed analysis gates and failed k6 script thresholds each get one error', () => {
  const result = analyzed(['p(50) < 0.0001ms']);
  result.verdictReasons = [...result.verdictReasons, 'script threshold failed: direct: http_req_duration p(50)<1'];
  const failed = (result.analysis as ReturnType<typeof analyzeWorded>).gates.filter((g) => g.decision === 'fail').length;
  assert.equal(annotationsFor(viewRun(result)).filter((a) => a.level === 'error').length, failed + 1);
});

test('the comment body carries its marker once and escapes what comes from results', () => {
  const result = load();
  result.verdict = 'fail';
  result.verdictReasons = [`@octocat look ${commentMarker('default')} <img src=x onerror=alert(1)> | broken`];
  result.run.suite = 'default';
  const { body, folded } = renderComment({ view: viewRun(result), links: { runUrl: RUN_URL } });
  assert.equal(folded, false);
  assert.equal(body.split(commentMarker('default')).length - 1, 1, 'exactly one marker: the one we put at the end');
  assert.ok(body.trimEnd().endsWith(commentMarker('default')));
  assert.ok(!body.includes('@octocat'), 'no @mention');
  assert.ok(!body.includes('<img'), 'no HTML from results');
  assert.match(body, /\[Job summary\]\(https:\/\/github\.test\/octo\/mesh\/actions\/runs\/77\)/);
  assert.match(body, /<details><summary>Run details<\/summary>\n\n/);
});

test('a body over the comment limit folds its details and links to the job summary', () => {
  const result = analyzed();
  const analysis = result.analysis as ReturnType<typeof analyzeWorded>;
  const gate = analysis.gates[0]!;
  analysis.gates = Array.from({ length: 600 }, (_, i) => ({ ...gate, gate: `p(50) < ${i}ms` }));
  const view = viewRun(result);
  const unlimited = renderComment({ view, links: { runUrl: RUN_URL }, limit: Number.MAX_SAFE_INTEGER });
  assert.ok(unlimited.body.length > 65_536, `the unfolded body is over GitHub's limit (${unlimited.body.length})`);
  const { body, folded } = renderComment({ view, links: { runUrl: RUN_URL } });
  assert.equal(folded, true);
  assert.ok(body.length <= COMMENT_LIMIT, `${body.length} ≤ ${COMMENT_LIMIT}`);
  assert.match(body, /folded to stay under GitHub's 65,536-character comment limit: see the \[job summary\]\(https:\/\/github\.test/);
  assert.ok(body.includes(commentMarker(view.suite)));
  assert.match(body, /\| one-hop \|/, 'the results table stays');
});

test('hundreds of mode rows keep the comment under the limit by cutting the table with a pointer', () => {
  const result = load();
  const template = result.modes[0]!;
  result.modes = Array.from({ length: 2_000 }, (_, i) => ({ ...template, name: `mode-${i}` }));
  const { body, folded } = renderComment({ view: viewRun(result), links: { runUrl: RUN_URL } });
  assert.equal(folded, true);
  assert.ok(body.length <= COMMENT_LIMIT);
  assert.match(body, /more rows are in the \[job summary\]/);
});

test('the job summary stays under 1 MiB by dropping optional sections with a note', () => {
  const result = analyzed();
  const analysis = result.analysis as ReturnType<typeof analyzeWorded>;
  analysis.gates = Array.from({ length: 8_000 }, (_, i) => ({ ...analysis.gates[0]!, gate: `p(50) < ${i}ms` }));
  const summary = renderJobSummary({ view: viewRun(result), links: {} });
  const bytes = Buffer.byteLength(summary);
  assert.ok(bytes <= 1024 * 1024, `${bytes} bytes`);
  assert.match(summary, /The gate table was left out to keep this summary under GitHub's 1 MiB limit/);
  assert.match(summary, /### Results/);
});

test('the base comparison is this run against the median of the base runs, carried by the view', () => {
  const result = load();
  const base = load();
  for (const mode of base.modes) for (const rep of mode.repetitions) rep.latencyMs!.p50 *= 0.8;
  const view = viewRun(result, { base: { ref: 'main', commit: 'c0ffee0000', runs: [base] } });
  const rows = view.reference!.comparisons;
  assert.equal(rows.length, 2);
  for (const row of rows) assert.ok(Math.abs(row.change - 0.25) < 1e-9, `${row.mode}: ${row.change}`);
  assert.deepEqual([view.reference!.described, view.reference!.runs], ['main at c0ffee0', 1]);
  const summary = renderJobSummary({ view, links: {} });
  assert.match(summary, /p50 vs base \(main at c0ffee0\)/);
  assert.match(summary, /\+25\.0%|\+25%/);
  assert.match(renderComment({ view, links: {} }).body, /base reference: main at c0ffee0, 1 run\(s\)/);
  const invalidBase = { ...base, verdict: 'invalid' as const };
  assert.deepEqual(
    viewRun(result, { base: { ref: 'main', runs: [invalidBase] } }).reference!.comparisons,
    [],
    'invalid history is never compared',
  );
  assert.equal(viewRun(result).reference, undefined, 'no lookup, no reference');
});

test('a run that ended before any repetition still renders a summary and a comment that say so', () => {
  const result = load();
  result.modes = [];
  result.verdict = 'invalid';
  result.verdictReasons = ['run ended early: echo server for mode "direct" exited', '4 of 4 planned repetitions did not run'];
  const view = viewRun(result);
  const summary = renderJobSummary({ view, links: { runUrl: RUN_URL } });
  assert.match(summary, /⚠️ \*\*invalid run\*\*/);
  assert.match(summary, /No repetition finished, so there are no measurements to show\./);
  assert.ok(!summary.includes('0 modes'));
  const { body } = renderComment({ view, links: { runUrl: RUN_URL } });
  assert.match(body, /No repetition finished/);
  assert.match(body, /4 of 4 planned repetitions did not run/);
  assert.deepEqual(annotationsFor(view), [], 'no gate failed and no repetition ran: nothing to annotate');
});

test('an inconclusive run: ⚠ in the job summary headline, reasons, gate table and PR comment; a warning annotation, no error', () => {
  const result = load();
  const reference = load();
  reference.run.id = 'past-run';
  const config = validateConfig({
    platform: 'local',
    modes: [{ name: 'direct' }, { name: 'one-hop' }],
    baseline: 'direct',
    load: { rate: 50, duration: '2s', repetitions: 2 },
  });
  // Two repetitions against two: the regression gate cannot reach p ≤ 0.05.
  const analysis = analyzeWorded(result, { config, reference: [reference], resamples: 200 });
  result.analysis = analysis;
  result.verdict = analysis.verdict;
  result.verdictReasons = analysis.verdictReasons;
  assert.equal(result.verdict, 'inconclusive');
  const view = viewRun(result);
  assert.equal(view.verdict, 'inconclusive');
  const gate = view.gates.find((g) => g.decision === 'inconclusive')!.result;
  assert.equal(gate.mode, 'one-hop');

  const summary = renderJobSummary({ view, links: {} });
  assert.match(summary, /^## mesh-perf · suite .* · ⚠️ \*\*inconclusive\*\*$/m);
  assert.match(summary, /No gate failed, but these could not decide with the repetitions this run had/);
  assert.match(
    summary,
    new RegExp(`\\| ⚠️ inconclusive \\(~${gate.repetitionsToSettle} reps\\) \\| regression p\\(50\\) \\| one-hop · 50rps \\|`),
  );

  const { body } = renderComment({ view, links: { runUrl: RUN_URL } });
  assert.match(body, /### mesh-perf · suite .* · ⚠️ \*\*inconclusive\*\*/);
  assert.match(body, /<details open><summary>Gates: \d+ checked, 0 failed, 1 inconclusive<\/summary>/);

  const annotations = annotationsFor(view);
  assert.equal(annotations.filter((a) => a.level === 'error').length, 0);
  const warning = annotations.find((a) => a.title === 'mesh-perf inconclusive: regression p(50)')!;
  assert.equal(warning.level, 'warning');
  assert.match(
    warning.message,
    /^one-hop · 50rps: one-hop \[50rps\] p\(50\) .*→ inconclusive \(with 2 vs 2 repetitions no p can reach 0\.05 \(the smallest possible is 0\.167\)/,
  );
});

test('the fork-safe commenter reads an inconclusive artifact; a verdict it does not know is still refused', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'mesh-perf-untrusted-'));
  try {
    const file = join(dir, 'results.json');
    await writeFile(file, JSON.stringify({ ...load(), verdict: 'inconclusive' }));
    assert.equal((await readUntrustedResults(file)).result.verdict, 'inconclusive');
    await writeFile(file, JSON.stringify({ ...load(), verdict: 'maybe' }));
    await assert.rejects(readUntrustedResults(file), /field verdict: .*expected one of "pass"\|"fail"\|"inconclusive"\|"invalid"/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('failed requests are marked red (🔴) with their causes in the job summary and the PR comment; no latency reads "–"', () => {
  const result = load();
  const mode = result.modes.find((m) => m.name === 'one-hop')!;
  for (const rep of mode.repetitions) {
    rep.failures = rep.requests;
    rep.errorRate = 1;
    rep.latencyMs = null;
    rep.errorCauses = { 'HTTP 500': rep.requests };
  }
  const view = viewRun(result);
  const row = view.modes.find((m) => m.mode === 'one-hop')!;
  assert.equal(row.latency.p50, undefined, 'no successful request: no latency');
  const total = mode.repetitions.reduce((n, r) => n + r.requests, 0);
  for (const body of [renderJobSummary({ view, links: { runUrl: RUN_URL } }), renderComment({ view, links: { runUrl: RUN_URL } }).body]) {
    const line = body.split('\n').find((l) => l.includes('one-hop') && l.startsWith('|'))!;
    assert.match(line, new RegExp(`🔴 100\\.0% \\(HTTP 500 × ${total.toLocaleString('en-US')}\\)`), line);
    const direct = body.split('\n').find((l) => l.includes('direct') && l.startsWith('|'))!;
    assert.doesNotMatch(direct, /🔴/);
  }
});
