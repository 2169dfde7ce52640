// The tables of bench/real-meshes from the pieces it wrote: per rate and mode the product's
// medians with their bootstrap intervals and overheads against the baseline (paired by block),
// plain k6's medians over its rounds and overheads beside them, the ratio of the two overheads,
// and the mesh proxy's CPU per 1000 rps and memory (the real kubelet's); then the A/B gate's
// decision beside plain k6's head ÷ base from the arms' client pods.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Interval } from '../../src/results/analysis.ts';
import type { ResourceUsage, RunResult } from '../../src/results/types.ts';
import { alignTable } from '../../src/util/text-table.ts';
import type { PieceRecord } from './run.ts';

const STATS = ['p50', 'p90', 'p99'] as const;
/** The proxies each mode adds: the group its CPU is read from (ambient: the node's ztunnel; Linkerd: the sidecars in its echo and client pods). */
const PROXY: Record<string, { scope: (mode: string) => string; group: string } | undefined> = {
  'istio-ambient': { scope: () => 'istio-system', group: 'ztunnel' },
  linkerd: { scope: (mode) => mode, group: 'sidecar' },
};

const ms = (v: number | undefined) => (v === undefined ? '—' : v.toFixed(2));
const interval = (ci: Interval | undefined) => (ci ? `[${ci.low.toFixed(2)}, ${ci.high.toFixed(2)}]` : '');
const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

function read(dir: string, piece: string): PieceRecord | undefined {
  return readAll(dir, piece)[0];
}

/** A piece's records: DIR/<piece>.json and every DIR/<piece>-<tag>.json (run.ts --tag), by name. */
function readAll(dir: string, piece: string): PieceRecord[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f === `${piece}.json` || (f.startsWith(`${piece}-`) && f.endsWith('.json') && !f.startsWith(`${piece}-plain`)))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as PieceRecord);
}

/** Medians over a mode's valid repetitions of its proxy group's CPU per 1000 rps and memory. */
function proxyCost(results: RunResult, mode: string, profile: string): { cpu: number; memory: number } | undefined {
  const proxy = PROXY[mode];
  if (!proxy) return undefined;
  const usage = results.modes
    .find((m) => m.name === mode && (m.profile ?? profile) === profile)
    ?.repetitions.filter((r) => r.valid)
    .map((r) => (r.resources ?? []).find((u: ResourceUsage) => u.scope === proxy.scope(mode) && u.group === proxy.group))
    .filter((u): u is ResourceUsage => u?.cpuPer1000Rps !== undefined);
  if (!usage || usage.length === 0) return undefined;
  return { cpu: median(usage.map((u) => u.cpuPer1000Rps!)), memory: median(usage.map((u) => u.memoryMiB.avg)) };
}

export function printReport(dir: string): void {
  const products = readAll(dir, 'product');
  const plainRounds = readAll(dir, 'plain').flatMap((r) => r.plain ?? []);
  const say = (line = '') => process.stdout.write(`${line}\n`);
  for (const piece of ['product', 'plain', 'ab', 'ab-plain'])
    for (const r of readAll(dir, piece))
      say(`${piece}: ${r.startedAt}, ${(r.seconds / 60).toFixed(1)} min, load average ${r.loadBefore} → ${r.loadAfter}, ${r.machine}`);
  const plainOf = (mode: string, rate: number) => plainRounds.filter((p) => p.mode === mode && p.rate === rate);
  const rows: string[][] = [
    [
      'rate',
      'mode',
      ...STATS.map((s) => `${s} ms [interval]`),
      ...STATS.map((s) => `+${s} ms [interval]`),
      ...STATS.map((s) => `plain k6 ${s} (+)`),
      '+p50 ÷ plain',
      'proxy CPU/1000 rps',
      'proxy MiB',
    ],
  ];
  for (const product of products) {
    if (!product.results?.analysis) continue;
    const analysis = product.results.analysis;
    const profiles = [...new Set(analysis.summaries.map((s) => s.profile))];
    for (const profile of profiles) {
      const rate = Number.parseFloat(profile);
      for (const summary of analysis.summaries.filter((s) => s.profile === profile)) {
        const mode = summary.mode;
        const isBase = mode === analysis.baseline;
        const over = (stat: string) => analysis.overheads.find((o) => o.mode === mode && o.profile === profile && o.metric === stat);
        const rounds = plainOf(mode, rate);
        const base = plainOf(analysis.baseline, rate);
        const plainOver = (stat: (typeof STATS)[number]) =>
          rounds.length === 0 || base.length === 0 ? undefined : median(rounds.map((r) => r[stat])) - median(base.map((r) => r[stat]));
        const plainCell = (stat: (typeof STATS)[number]) => {
          if (rounds.length === 0) return '—';
          const m = median(rounds.map((r) => r[stat]));
          return isBase || base.length === 0 ? ms(m) : `${ms(m)} (+${ms(plainOver(stat))})`;
        };
        // The product's p50 overhead over plain k6's, measured on the same node and meshes: 1 when
        // the product's harness adds nothing to what a mesh is seen to cost.
        const productOver = over('p50')?.difference.value;
        const ratio = !isBase && productOver !== undefined && plainOver('p50') ? (productOver / plainOver('p50')!).toFixed(2) : '';
        const cost = proxyCost(product.results, mode, profile);
        rows.push([
          profile,
          mode,
          ...STATS.map((s) => `${ms(summary.statistics[s]?.median)} ${interval(summary.statistics[s]?.ci)}`),
          ...STATS.map((s) => (isBase ? '' : `${ms(over(s)?.difference.value)} ${interval(over(s)?.difference.ci)}`)),
          ...STATS.map(plainCell),
          ratio,
          cost ? `${cost.cpu.toFixed(0)} m` : '',
          cost ? cost.memory.toFixed(1) : '',
        ]);
      }
    }
  }
  if (rows.length > 1) {
    say();
    say(alignTable(rows, (c) => c < 2));
    // The product's bootstrap over n repetitions: below 6 it spans the repetitions' range, which
    // covers the true median about 1 − 2^(1−n) of the time (50% at 2), not 95% (as its summary says).
    const n = Math.min(...products.flatMap((p) => p.results?.analysis?.summaries.map((s) => s.statistics.p50?.n ?? 0) ?? []));
    say(
      n >= 6
        ? `Intervals: 95% bootstrap over ${n}+ repetitions; overheads paired by interleaved block.`
        : `Intervals: with ${n} repetitions the range of the repetitions (covers the true median ${((1 - 2 ** (1 - n)) * 100).toFixed(0)}% of the time, not 95%; 6 or more give a 95% interval); overheads paired by interleaved block.`,
    );
  }
  const ab = read(dir, 'ab');
  const abPlain = read(dir, 'ab-plain');
  const gate = ab?.results?.analysis?.ab?.gates.find((g) => g.statistic === 'p50');
  if (gate) {
    const arm = (mode: string) => (abPlain?.plain ?? []).filter((p) => p.mode === mode);
    const base = median(arm('linkerd-base').map((r) => r.p50));
    const head = median(arm('linkerd-head').map((r) => r.p50));
    say();
    say(
      `A/B gate (linkerd, p50): ${gate.decision} at ${gate.pairs} blocks: base ${ms(gate.baseMs)} ms, head ${ms(gate.headMs)} ms, head ÷ base − 1 = ${(gate.change.value * 100).toFixed(1)}% [${(gate.change.low * 100).toFixed(1)}%, ${(gate.change.high * 100).toFixed(1)}%], stopped: ${ab!.results!.analysis!.stopping?.reason ?? '—'} after ${ab!.results!.analysis!.stopping?.elapsedS?.toFixed(0) ?? '?'} s`,
    );
    if (abPlain)
      say(
        `plain k6 against the same arms (${arm('linkerd-base').length} + ${arm('linkerd-head').length} rounds): base p50 ${ms(base)} ms, head ${ms(head)} ms, head ÷ base − 1 = ${((head / base - 1) * 100).toFixed(1)}%`,
      );
  }
}
