// The path evidence (repetitions[].path: what the proxies in a mode's path counted, by their own
// counters) reaches the user: one line per mode in the terminal (within 80 columns), summary.md,
// the job summary and the PR comment, and a column of report.html's summary (the stored run page
// renders with the same renderer). A run without evidence (local platform) says nothing about it;
// a mode without evidence in a run that has it says "path not checked".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ProxyKind, ProxyTraffic, RunResult } from '../../src/results/types.ts';
import { renderTerminalTable } from '../../src/report/terminal.ts';
import { renderSummaryMarkdown } from '../../src/report/summary-markdown.ts';
import { renderHtmlReport } from '../../src/report/html/render.ts';
import { buildRunView } from '../../src/report/view.ts';
import { renderJobSummary } from '../../src/github/job-summary.ts';
import { renderComment } from '../../src/github/comment-body.ts';
import { buildRunResult } from '../support/results-fixture.ts';

const LINKS = { runUrl: 'https://github.test/o/r/actions/runs/1' };

function traffic(proxy: ProxyKind, pods: number, count: number, mtls = count): ProxyTraffic {
  const unit = proxy === 'ztunnel' ? 'connections' : 'requests';
  return { proxy, pods, unit, count, mtls, plaintext: count - mtls, peers: [] };
}

/** A kind run of every mesh mode whose proxies counted what a healthy cluster's would. */
function kindRun(): RunResult {
  const result = buildRunResult({ seed: 7, repetitions: 2 });
  result.run.platform = 'kind';
  for (const mode of result.modes) {
    for (const rep of mode.repetitions) {
      const n = rep.requests;
      const shared = { ztunnel: traffic('ztunnel', 2, 0), sidecar: traffic('sidecar', 0, 0), linkerd: traffic('linkerd-proxy', 0, 0) };
      const own: Record<string, ProxyTraffic[]> = {
        baseline: [shared.ztunnel, shared.sidecar, shared.linkerd],
        'istio-sidecar': [traffic('sidecar', 1, n), shared.ztunnel, shared.linkerd],
        'istio-ambient': [traffic('ztunnel', 2, 6)],
        'istio-waypoint': [traffic('waypoint', 1, n), traffic('ztunnel', 2, 6)],
        linkerd: [traffic('linkerd-proxy', 1, n, n - 10), shared.ztunnel, shared.sidecar],
      };
      rep.path = { proxies: own[mode.name]! };
    }
  }
  return result;
}

function requestsOf(result: RunResult, mode: string): string {
  const n = result.modes
    .filter((m) => m.name === mode)
    .flatMap((m) => m.repetitions)
    .reduce((s, r) => s + r.requests, 0);
  return n.toLocaleString('en-US');
}

function outputs(result: RunResult) {
  const view = buildRunView(result);
  return {
    terminal: renderTerminalTable(view, { width: 80 }),
    'summary.md': renderSummaryMarkdown(view),
    'job summary': renderJobSummary({ view, links: LINKS }),
    'PR comment': renderComment({ view, links: LINKS }).body,
    'report.html': renderHtmlReport(view, { chartJs: { src: 'chart.js' }, assets: { css: 'r.css', js: 'r.js' } }),
  };
}

const once = (text: string, needle: string) => text.split(needle).length - 1;

test('every output shows, once per mode, what the proxies in its path counted', () => {
  const result = kindRun();
  const expected = {
    baseline: 'no mesh proxy counted it (ztunnel read)',
    'istio-sidecar': `sidecar counted ${requestsOf(result, 'istio-sidecar')} of ${requestsOf(result, 'istio-sidecar')} requests (mTLS); ztunnel none`,
    'istio-ambient': 'ztunnel counted 12 connections (mTLS)',
    'istio-waypoint': `waypoint counted ${requestsOf(result, 'istio-waypoint')} of ${requestsOf(result, 'istio-waypoint')} requests (mTLS), ztunnel counted 12 connections (mTLS)`,
    linkerd: `linkerd-proxy counted ${requestsOf(result, 'linkerd')} of ${requestsOf(result, 'linkerd')} requests`,
  };
  for (const [name, text] of Object.entries(outputs(result))) {
    const heading = name === 'report.html' ? 'Path, by the proxies&#39; own counters' : "Path, by the proxies' own counters";
    assert.equal(once(text, heading), 1, `${name}: one path heading`);
    // Text outputs wrap; compare them with whitespace collapsed.
    const flat = name === 'terminal' ? text.replace(/\n {4}(?=\S)/g, ' ') : text;
    for (const [mode, line] of Object.entries(expected)) {
      if (name === 'report.html') continue; // per profile, below
      const lead = name === 'terminal' ? `- ${mode}: ` : `- \`${mode}\`: `;
      assert.equal(once(flat, `${lead}${line}`), 1, `${name}: ${mode}'s path once: ${lead}${line}`);
    }
  }
  // Linkerd's 10 plaintext requests per repetition (e.g. from outside the mesh) are said.
  assert.match(
    outputs(result).terminal.replace(/\n {4}(?=\S)/g, ' '),
    /linkerd-proxy counted [\d,]+ of [\d,]+ requests \([\d,]+ mTLS, 20 plaintext\)/,
  );
  for (const line of outputs(result).terminal.split('\n')) assert.ok([...line].length <= 80, `terminal line over 80 columns: ${line}`);
  // report.html: a path column in the summary, one cell per mode and profile.
  const html = outputs(result)['report.html'];
  assert.match(
    html,
    /<th class="text" title="Path, by the proxies&#39; own counters \(summed over repetitions\)">path \(proxy counters\)<\/th>/,
  );
  assert.equal(once(html, '<td class="text path">ztunnel counted 12 connections (mTLS)</td>'), 1);
  assert.equal(once(html, '<td class="text path">no mesh proxy counted it (ztunnel read)</td>'), 1);
});

test('a mode without evidence in a run that has it says "path not checked"; partial evidence says how much', () => {
  const result = kindRun();
  for (const rep of result.modes.find((m) => m.name === 'istio-ambient')!.repetitions) delete rep.path;
  delete result.modes.find((m) => m.name === 'linkerd')!.repetitions[0]!.path;
  result.modes.find((m) => m.name === 'istio-sidecar')!.repetitions[0]!.path!.problems = ['sidecar pod echo-1: 403'];
  const terminal = outputs(result).terminal.replace(/\n {4}(?=\S)/g, ' ');
  assert.match(terminal, /- istio-ambient: path not checked\n/);
  assert.match(
    terminal,
    /- linkerd: linkerd-proxy counted [\d,]+ of [\d,]+ requests \([\d,]+ mTLS, 10 plaintext\); ztunnel none; read in 1 of 2 repetitions\n/,
  );
  assert.match(terminal, /- istio-sidecar: sidecar counted .*; ztunnel none; some pods unread in 1 repetition\n/);
});

test('a baseline whose pods carry no mesh proxy at all says none was found, not that one counted nothing', () => {
  const result = kindRun();
  for (const rep of result.modes.find((m) => m.name === 'baseline')!.repetitions)
    rep.path = { proxies: [traffic('sidecar', 0, 0), traffic('linkerd-proxy', 0, 0)] };
  assert.match(
    outputs(result).terminal.replace(/\n {4}(?=\S)/g, ' '),
    /- baseline: no mesh proxy found in its path \(sidecar, linkerd-proxy looked for\)\n/,
  );
});

test('a run whose platform reads no proxy counters (local) says nothing about the path', () => {
  const result = buildRunResult({ seed: 7, repetitions: 2 });
  for (const [name, text] of Object.entries(outputs(result))) {
    assert.doesNotMatch(text, /proxies&#39; own counters|proxies' own counters|path not checked|proxy counters\)/, name);
  }
});
