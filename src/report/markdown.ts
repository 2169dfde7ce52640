// summary.md: the same table as the terminal, as GitHub-flavoured markdown. Pure.
import type { RunResult } from '../results/types.ts';
import { formatMs, formatPct, formatRps, formatSignedMs, invalidNotes, tableRows } from './table-model.ts';

const VERDICT_ICON = { pass: '✅', fail: '❌', invalid: '⚠️' } as const;

export function renderSummaryMarkdown(result: RunResult): string {
  const rows = tableRows(result);
  const out: string[] = [];
  out.push(`## mesh-perf · ${result.run.suite} · ${VERDICT_ICON[result.verdict]} ${result.verdict}`, '');
  for (const reason of result.verdictReasons) out.push(`- ${reason}`);
  if (result.verdictReasons.length) out.push('');
  out.push('| profile | mode | p50 | p90 | p99 | max | rps (achieved/target) | errors | overhead p50 | valid reps |');
  out.push('|---|---|--:|--:|--:|--:|--:|--:|--:|--:|');
  for (const r of rows) {
    out.push(
      `| ${r.profile} | ${r.isBaseline ? `**${r.mode}** (baseline)` : r.mode} | ${formatMs(r.p50)} | ${formatMs(r.p90)} | ${formatMs(r.p99)} | ${formatMs(r.max)} | ${formatRps(r)} | ${formatPct(r.errorRate === undefined ? undefined : r.errorRate * 100)} | ${r.isBaseline ? '—' : `${formatSignedMs(r.overheadMs)} (${formatPct(r.overheadPct, true)})`} | ${r.validReps}/${r.totalReps} |`,
    );
  }
  out.push('', 'Latency: median over valid repetitions. Overhead: against the baseline mode in the same run.');
  const notes = invalidNotes(result);
  if (notes.length) out.push('', '**Invalid repetitions** (reported, never compared):', '', ...notes.map((n) => `- ${n}`));
  out.push('', `<sub>run ${result.run.id} · ${result.run.platform} · ${result.run.machine.runnerClass} · k6 ${result.run.tools.k6 ?? '?'} · seed ${result.plan.seed}</sub>`, '');
  return out.join('\n');
}
