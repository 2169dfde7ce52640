// One run through every output, and the figures read back out of each: the p50 and p99 medians,
// the p50 overhead (ms and %), the error rate per mode and the verdict must agree across the
// terminal table, summary.md, the job summary, the PR comment, report.html (as text), the
// dashboard's index entry and the exports and source-benchmark formats, each within the digits it
// prints. The figures are parsed from the rendered text; none is taken from the code that
// rendered it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunResult } from '../../src/results/types.ts';
import { renderTerminalTable } from '../../src/report/terminal.ts';
import { AMBIENT_LABELS } from '../../src/report/formats/ambient.ts';
import { loadStored, renderAll, STORED_RUNS } from './support/outputs.ts';
import { buildRunView } from '../../src/report/view.ts';

type Figure = 'p50' | 'p99' | 'overheadMs' | 'overheadPct' | 'errorRate';

/** A number as printed: its value and how far the printed digits may be from the true one. */
interface Reading {
  output: string;
  value: number;
  /** Half a unit of the last printed digit (0.005 for "1.75"); for "<0.01%" the bound itself. */
  slack: number;
  /** "<x": the true value is in (0, x). */
  below?: boolean;
}

class Readings {
  readonly byKey = new Map<string, Reading[]>();
  readonly verdicts = new Map<string, string>();

  add(output: string, mode: string, profile: string, figure: Figure, text: string | undefined): void {
    if (text === undefined) return;
    const reading = parseNumber(output, text);
    if (!reading) return;
    const key = `${mode} [${profile}] ${figure}`;
    this.byKey.set(key, [...(this.byKey.get(key) ?? []), reading]);
  }
}

/** "+0.300 ms", "1.75%", "−1.07", "<0.01%", "2.89811" → value and slack; "–", "—", "baseline" → none. */
function parseNumber(output: string, text: string): Reading | undefined {
  const match = /^(<)?([+−-]?)(\d[\d,]*(?:\.(\d+))?)/.exec(text.trim());
  if (!match) return undefined;
  const [, below, sign, digits, decimals] = match;
  const value = Number(digits!.replace(/,/g, '')) * (sign === '−' || sign === '-' ? -1 : 1);
  // A bare "0" (error rates: "0%") is printed only for nothing at all; other integers are rounded.
  const slack = value === 0 && decimals === undefined ? 0 : 0.5 * 10 ** -(decimals?.length ?? 0);
  return below ? { output, value, slack: value, below: true } : { output, value, slack };
}

const cells = (line: string) =>
  line
    .split('|')
    .slice(1, -1)
    .map((c) => c.trim());
const plainMode = (cell: string) => cell.replace(/^\*\*(.+)\*\* \(baseline\)$/, '$1');
const stripTags = (html: string) =>
  html
    .replace(/<br>/g, ' ')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<');

function readTerminal(text: string, into: Readings, profiles: string[]): void {
  // A run with arms leads with its A/B lines; the table starts at its header.
  const all = text.split('\n');
  const lines = all.slice(
    Math.max(
      0,
      all.findIndex((l) => l.startsWith('mode ')),
    ),
  );
  const header = lines[0]!.split(/ {2,}/);
  const column = (name: string) => header.indexOf(name);
  for (const line of lines.slice(2)) {
    if (line.trim() === '' || line.startsWith('Latency:')) break;
    const row = line.split(/ {2,}/);
    const profile = column('profile') >= 0 ? row[column('profile')]! : profiles[0]!;
    const mode = row[0]!;
    into.add('terminal', mode, profile, 'p50', row[column('p50')]);
    into.add('terminal', mode, profile, 'p99', row[column('p99')]);
    into.add('terminal', mode, profile, 'errorRate', row[column('errors')]);
    const overhead = row[column('overhead')]!;
    into.add('terminal', mode, profile, 'overheadMs', overhead);
    into.add('terminal', mode, profile, 'overheadPct', /\(([^)]+)\)/.exec(overhead)?.[1]);
  }
  into.verdicts.set('terminal', /^Verdict: (?:⚠ )?(\w+)/m.exec(text)![1]!.toLowerCase());
}

function readSummaryMarkdown(text: string, into: Readings): void {
  const lines = text.split('\n');
  const header = cells(lines.find((l) => l.startsWith('| profile | mode |'))!);
  const at = (name: string) => header.indexOf(name);
  for (const line of lines.filter((l) => l.startsWith('| ') && !l.startsWith('| profile'))) {
    const row = cells(line);
    const [profile, mode] = [row[0]!, plainMode(row[1]!)];
    into.add('summary.md', mode, profile, 'p50', row[at('p50')]);
    into.add('summary.md', mode, profile, 'p99', row[at('p99')]);
    into.add('summary.md', mode, profile, 'errorRate', row[at('errors')]!.replace('🔴 ', ''));
    const overhead = row[at('overhead p50')]!;
    into.add('summary.md', mode, profile, 'overheadMs', overhead);
    into.add('summary.md', mode, profile, 'overheadPct', /\(([^)]+)\)$/.exec(overhead)?.[1]);
  }
  into.verdicts.set('summary.md', /^## mesh-perf · .* · \S+ (\w+)$/m.exec(text)![1]!);
}

/** The job summary and the comment share one table layout. */
function readGitHubTable(output: string, text: string, into: Readings, profiles: string[]): void {
  const lines = text.split('\n');
  const headerLine = lines.findIndex((l) => l.startsWith('| mode |'));
  const header = cells(lines[headerLine]!);
  const at = (prefix: string) => header.findIndex((h) => h.startsWith(prefix));
  for (const line of lines.slice(headerLine + 2)) {
    if (!line.startsWith('|')) break;
    const row = cells(line);
    const mode = plainMode(row[0]!);
    const profile = at('load') >= 0 ? row[at('load')]! : profiles[0]!;
    into.add(output, mode, profile, 'p50', row[at('p50 ms')]);
    into.add(output, mode, profile, 'p99', row[at('p99 ms')]);
    into.add(output, mode, profile, 'errorRate', row[at('errors')]!.replace('🔴 ', '').replace('&lt;', '<'));
    const overhead = row[at('p50 overhead')]!;
    into.add(output, mode, profile, 'overheadMs', overhead);
    into.add(output, mode, profile, 'overheadPct', /\(([^)]+)\)$/.exec(overhead)?.[1]);
  }
  into.verdicts.set(output, /· \S+ \*\*(\w+)/.exec(text)![1]!);
}

function readHtml(html: string, into: Readings): void {
  for (const [, profile, table] of html.matchAll(
    /<h3>Load profile <code>([^<]+)<\/code><\/h3>\s*<table class="summary">(.*?)<\/table>/gs,
  )) {
    const header = [...table!.matchAll(/<th[^>]*>([^<]*)<\/th>/g)].map((m) => m[1]!);
    for (const [, row] of table!.matchAll(/<tr[^>]*>(<td.*?)<\/tr>/gs)) {
      const cell = [...row!.matchAll(/<td[^>]*>(.*?)<\/td>/gs)].map((m) => stripTags(m[1]!));
      const mode = cell[0]!;
      into.add('report.html', mode, profile!, 'p50', cell[header.indexOf('p50 (ms)')]);
      into.add('report.html', mode, profile!, 'p99', cell[header.indexOf('p99 (ms)')]);
      into.add('report.html', mode, profile!, 'errorRate', cell[header.indexOf('error rate')]);
      const overhead = cell[header.indexOf('p50 overhead')]!;
      into.add('report.html', mode, profile!, 'overheadMs', overhead);
      into.add('report.html', mode, profile!, 'overheadPct', /\(([^)]+)\)/.exec(overhead)?.[1]);
    }
  }
  into.verdicts.set('report.html', /<h1>.*?<span class="badge (\w+)">/.exec(html)![1]!);
}

function readIndexEntry(json: string, into: Readings): void {
  const entry = JSON.parse(json) as { verdict: string; modes: Record<string, Record<string, { s: Record<string, number[]> }>> };
  for (const [profile, modes] of Object.entries(entry.modes)) {
    for (const [mode, figures] of Object.entries(modes)) {
      // The index keeps five significant digits.
      for (const stat of ['p50', 'p99'] as const) {
        const value = figures.s[stat]?.[0];
        if (value !== undefined) into.add('index entry', mode, profile, stat, value.toPrecision(5));
      }
    }
  }
  into.verdicts.set('index entry', entry.verdict);
}

/** CSV blocks: "Load profile: get" (the export) or one block per profile in order (ambient's). */
function readCsv(output: string, text: string, into: Readings, profiles: string[], label: (mode: string) => string): void {
  const blocks = text.split(/\n\n(?=Run time:)/);
  blocks.forEach((block, i) => {
    const profile = /^Load profile: (\S+)/m.exec(block)?.[1] ?? profiles[i]!;
    const lines = block.split('\n');
    const header = lines.find((l) => l.startsWith(','))!.split(',');
    for (const stat of ['p50', 'p99'] as const) {
      const row = lines.find((l) => l.startsWith(`${stat},`))!.split(',');
      header.forEach((name, c) => {
        if (c === 0 || name === '') return;
        into.add(output, label(name), profile, stat, row[c]);
      });
    }
  });
}

function readExportMarkdown(text: string, into: Readings, profiles: string[]): void {
  text
    .split('\n\n')
    .filter((t) => t.startsWith('| '))
    .forEach((table, i) => {
      const [head, , ...rows] = table.split('\n');
      const modes = cells(head!).slice(1);
      for (const row of rows) {
        const [stat, ...values] = cells(row);
        if (stat !== 'p50' && stat !== 'p99') continue;
        values.forEach((v, c) => {
          into.add('export.md', modes[c]!, profiles[i]!, stat, v);
          if (stat === 'p50') into.add('export.md', modes[c]!, profiles[i]!, 'overheadPct', /\(([^)]+)\)/.exec(v)?.[1]);
        });
      }
    });
}

function readIstioSizing(text: string, into: Readings): void {
  for (const section of text.split('\n### ').slice(1)) {
    const profile = section.split('\n')[0]!;
    const lines = section.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| Mode'));
    for (const line of lines) {
      const [mode, addedP50] = cells(line);
      into.add('istio-sizing', mode!, profile, 'overheadMs', addedP50);
    }
  }
}

function readAll(result: RunResult): Readings {
  const outputs = renderAll(result);
  const profiles = [...new Set(result.modes.map((m) => m.profile))];
  const readings = new Readings();
  // Unlimited width: one table holding every column.
  readTerminal(renderTerminalTable(buildRunView(result)), readings, profiles);
  readSummaryMarkdown(outputs.get('summary.md')!, readings);
  readGitHubTable('job summary', outputs.get('job-summary.md')!, readings, profiles);
  readGitHubTable('PR comment', outputs.get('comment.md')!, readings, profiles);
  readHtml(outputs.get('report.html')!, readings);
  readIndexEntry(outputs.get('index-entry.json')!, readings);
  readCsv('export.csv', outputs.get('export.csv')!, readings, profiles, (m) => m);
  const ambientName = (label: string) => Object.entries(AMBIENT_LABELS).find(([, l]) => l === label)?.[0] ?? label;
  readCsv('ambient-csv', outputs.get('format-ambient-csv-ambient-results.csv')!, readings, profiles, ambientName);
  readExportMarkdown(outputs.get('export.md')!, readings, profiles);
  readIstioSizing(outputs.get('format-istio-sizing-istio-sizing.md')!, readings);
  return readings;
}

/** Every reading of a figure must fit the most precise one, within the digits each prints. */
function disagreements(readings: Readings): string[] {
  const out: string[] = [];
  for (const [key, list] of readings.byKey) {
    const exact = list.filter((r) => !r.below).sort((a, b) => a.slack - b.slack)[0];
    if (!exact) continue;
    for (const r of list) {
      const fits = r.below
        ? exact.value < r.value + exact.slack && exact.value > 0
        : Math.abs(r.value - exact.value) <= r.slack + exact.slack + 1e-9;
      if (!fits) out.push(`${key}: ${r.output} shows ${r.below ? '<' : ''}${r.value}, ${exact.output} shows ${exact.value}`);
    }
  }
  return out;
}

for (const name of Object.keys(STORED_RUNS) as (keyof typeof STORED_RUNS)[]) {
  test(`${name}: every output shows the same p50, p99, overhead, error rate and verdict`, () => {
    const result = loadStored(name);
    const readings = readAll(result);
    assert.deepEqual(disagreements(readings), []);
    assert.deepEqual(new Set(readings.verdicts.values()), new Set([result.verdict]), JSON.stringify([...readings.verdicts]));

    // Each figure of each mode was read from the outputs that show it (a parser that found nothing would pass vacuously).
    const shownBy = (figure: Figure, mode: string, profile: string) =>
      new Set((readings.byKey.get(`${mode} [${profile}] ${figure}`) ?? []).map((r) => r.output));
    for (const mode of result.modes) {
      const fromValid = mode.repetitions.some((r) => r.valid && r.latencyMs);
      if (fromValid) {
        for (const figure of ['p50', 'p99'] as const) {
          assert.deepEqual(
            [...shownBy(figure, mode.name, mode.profile)].sort(),
            ['PR comment', 'ambient-csv', 'export.csv', 'export.md', 'index entry', 'job summary', 'report.html', 'summary.md', 'terminal'],
            `${figure} of ${mode.name} [${mode.profile}]`,
          );
        }
      }
      assert.deepEqual(
        [...shownBy('errorRate', mode.name, mode.profile)].sort(),
        ['PR comment', 'job summary', 'report.html', 'summary.md', 'terminal'],
        `error rate of ${mode.name} [${mode.profile}]`,
      );
      if (mode.name !== result.baseline && fromValid) {
        assert.ok(shownBy('overheadMs', mode.name, mode.profile).size >= 5, `overhead ms of ${mode.name} [${mode.profile}]`);
        assert.ok(shownBy('overheadPct', mode.name, mode.profile).size >= 5, `overhead % of ${mode.name} [${mode.profile}]`);
      }
    }
  });
}

// The A/B verdict: every output leads with it, and each says the same change, interval, decision,
// and, on the stopping line under it, blocks and time (read back from the rendered text).
test('ab-arms: every output leads with the same A/B verdict line', () => {
  const result = loadStored('ab-arms');
  const outputs = renderAll(result);
  const evidence = result.analysis!.ab!.gates[0]!;
  // The blocks and time are the stopping line's, right under the gate line (said once).
  const line = /(\S+) head vs base: (p\d+) ([+-]?[\d.]+%) \[([+-]?[\d.]+%), ([+-]?[\d.]+%)\],.*?→ (\w+)\s+Measured (\d+) blocks, ([^;]+);/;
  const read = (text: string) => {
    // Wrapped lines (the terminal) join back into one; markdown escapes and HTML tags go.
    const match = line.exec(
      text
        .replace(/\\/g, '')
        .replace(/<[^>]+>/g, '')
        .replace(/\n +/g, ' '),
    );
    assert.ok(match, text.slice(0, 400));
    return match.slice(1).join(' ');
  };
  const lead: Record<string, (text: string) => boolean> = {
    'terminal.txt': (t) => t.startsWith('A/B:\n'),
    'summary.md': (t) => t.split('\n')[2] === '**A/B**',
    'job-summary.md': (t) => t.indexOf('**A/B**') < t.indexOf('### Results'),
    'comment.md': (t) => t.indexOf('**A/B**') < t.indexOf('| mode'),
    'report.html': (t) => t.indexOf('<section id="ab">') < t.indexOf('<section id="verdict">') && t.indexOf('<section id="ab">') > 0,
  };
  const seen = new Map<string, string>();
  for (const [file, leads] of Object.entries(lead)) {
    const text = outputs.get(file)!;
    assert.ok(leads(text), `${file} does not lead with the A/B verdict`);
    seen.set(file, read(text));
  }
  assert.equal(new Set(seen.values()).size, 1, JSON.stringify([...seen]));
  const [mode, statistic, , , , decision, blocks] = [...seen.values()][0]!.split(' ');
  assert.equal(mode, evidence.mode);
  assert.equal(statistic, evidence.statistic);
  assert.equal(decision, evidence.decision);
  assert.equal(Number(blocks), result.analysis!.stopping!.blocks);
  // The chart gets the same blocks the gate paired.
  const data = JSON.parse(/<script type="application\/json" id="mesh-perf-data">(.*?)<\/script>/s.exec(outputs.get('report.html')!)![1]!);
  assert.deepEqual(
    data.ab[0].blocks,
    evidence.perBlock.map((b) => b.block),
  );
});

test('the check catches a disagreement: a p50 one output rounds differently, an error rate shown as 0 beside a non-zero one', () => {
  const readings = new Readings();
  readings.add('a', 'm', 'p', 'p50', '1.005 ms');
  readings.add('b', 'm', 'p', 'p50', '1.00');
  readings.add('c', 'm', 'p', 'p50', '1.02');
  readings.add('d', 'm', 'p', 'errorRate', '0.005%');
  readings.add('e', 'm', 'p', 'errorRate', '<0.01%');
  readings.add('f', 'm', 'p', 'errorRate', '0%');
  assert.deepEqual(disagreements(readings), [
    'm [p] p50: c shows 1.02, a shows 1.005',
    'm [p] errorRate: d shows 0.005, f shows 0',
    'm [p] errorRate: e shows <0.01, f shows 0',
  ]);
});

test('arms derived from the PR base: the comment and the job summary fold how, right under the A/B lines; a hostile record is ignored', () => {
  const result = loadStored('ab-arms');
  result.config.armsFromBase = {
    source: "the PR base's mesh-perf.yaml (1a2b3c4)",
    armed: [{ mode: 'svc', differs: ['url'] }],
    history: [{ mode: 'direct', reason: 'it is new: the PR base has no mode "direct"' }],
  };
  const outputs = renderAll(result);
  for (const file of ['comment.md', 'job-summary.md']) {
    const text = outputs.get(file)!;
    const folded = text.indexOf('<summary>A/B arms from the base config: 1 mode</summary>');
    assert.ok(folded > text.indexOf('**A/B**') && folded < text.indexOf('| mode'), `${file}: ${text.slice(0, 600)}`);
    assert.match(text, /mode svc runs as two arms, base and head \(url differ\)/);
    assert.match(text, /mode direct is compared with history instead: it is new/);
  }
  result.config.armsFromBase = { source: 42, armed: 'x' };
  assert.doesNotMatch(renderAll(result).get('comment.md')!, /A\/B arms from/);
});
