// summary.md: the same table as the terminal, as GitHub-flavoured markdown. Pure.
import type { RunResult } from '../results/types.ts';
import { errorNotes, formatErrors, formatMs, formatPct, formatRps, formatSignedMs, invalidNotes, tableRows } from './table-model.ts';
import { analysisMarkdownLines, analysisView } from '../analysis/report-view.ts';

const VERDICT_ICON = { pass: '✅', fail: '❌', inconclusive: '⚠️', invalid: '⚠️' } as const;

export function renderSummaryMarkdown(result: RunResult): string {
  const rows = tableRows(result);
  const view = analysisView(result);
  const ci = (r: (typeof rows)[number]) => (view ? ` | ${view.interval(r.mode, r.profile, 'p50') ?? '—'}` : '');
  const out: string[] = [];
  out.push(`## mesh-perf · ${result.run.suite} · ${VERDICT_ICON[result.verdict]} ${result.verdict}`, '');
  for (const reason of result.verdictReasons) out.push(`- ${reason}`);
  if (result.verdictReasons.length) out.push('');
  out.push(
    `| profile | mode | p50${view ? ` | p50 ${view.intervalLabel}` : ''} | p90 | p99 | max | rps (achieved/target) | errors | overhead p50 | valid reps |`,
  );
  out.push(`|---|---|--:${view ? '|--:' : ''}|--:|--:|--:|--:|--:|--:|--:|`);
  for (const r of rows) {
    out.push(
      `| ${r.profile} | ${r.isBaseline ? `**${r.mode}** (baseline)` : r.mode} | ${formatMs(r.p50)}${ci(r)} | ${formatMs(r.p90)} | ${formatMs(r.p99)} | ${formatMs(r.max)} | ${formatRps(r)} | ${r.failures > 0 ? `🔴 ${formatErrors(r)}` : formatErrors(r)} | ${r.isBaseline ? '—' : (view?.overhead(r.mode, r.profile, 'p50') ?? `${formatSignedMs(r.overheadMs)} (${formatPct(r.overheadPct, true)})`)} | ${r.validReps}/${r.totalReps} |`,
    );
  }
  out.push('', 'Latency: median over valid repetitions. Overhead: against the baseline mode in the same run.');
  if (view) out.push('', ...analysisMarkdownLines(view));
  const errors = errorNotes(rows);
  if (errors.length) out.push('', '**🔴 Failed requests**', '', ...errors.map((n) => `- ${n}`));
  const notes = invalidNotes(result);
  if (notes.length) out.push('', '**Invalid repetitions** (reported, never compared):', '', ...notes.map((n) => `- ${n}`));
  out.push(
    '',
    `<sub>run ${result.run.id} · ${result.run.platform} · ${result.run.machine.runnerClass} · k6 ${result.run.tools.k6 ?? '?'} · seed ${result.plan.seed}</sub>`,
    '',
  );
  return out.join('\n');
}
