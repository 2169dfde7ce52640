// summary.md: the same table as the terminal, as GitHub-flavoured markdown. Pure.
import {
  abLeadLines,
  stoppingLine,
  analysisLines,
  errorNotes,
  formatErrors,
  formatRps,
  intervalCell,
  intervalLabel,
  invalidNotes,
  LATENCY_NOTE,
  latencyCell,
  NO_MEASUREMENTS,
  overheadText,
  reasonsBesideAbLead,
  PATH_HEADING,
  pathNotes,
  VERDICT_ICON,
} from './cells.ts';
import { code, text as escapeMarkdown } from './markdown-kit.ts';
import { dashboardUrlOf, type RunView } from './view.ts';

const GATE_ICON = { '✓': '✅', '✗': '❌', '⚠': '⚠️', '–': '➖', '?': '🔁' } as const;

export function renderSummaryMarkdown(view: RunView): string {
  const label = intervalLabel(view);
  const ci = (r: RunView['modes'][number]) => (label ? ` | ${intervalCell(r, 'p50') ?? '—'}` : '');
  const out: string[] = [];
  out.push(`## mesh-perf · ${view.suite} · ${VERDICT_ICON[view.verdict]} ${view.verdict}`, '');
  // A run with arms leads with its A/B verdict.
  const lead = abLeadLines(view);
  if (lead.length > 0) {
    out.push('**A/B**', '', ...lead.map((g) => `- ${GATE_ICON[g.mark]} ${escapeMarkdown(g.line)}`));
    const stopped = stoppingLine(view);
    out.push(...(stopped ? ['', escapeMarkdown(stopped)] : []), '');
  }
  // An A/B gate's reason is its lead line above: said once.
  const reasons = reasonsBesideAbLead(view);
  for (const reason of reasons) out.push(`- ${reason}`);
  if (reasons.length) out.push('');
  // A run that ended before any repetition finished: one sentence, not an empty table.
  if (view.modes.length === 0) out.push(NO_MEASUREMENTS);
  else {
    out.push(
      `| profile | mode | p50${label ? ` | p50 ${label}` : ''} | p90 | p99 | max | rps (achieved/target) | errors | overhead p50 | valid reps |`,
    );
    out.push(`|---|---|--:${label ? '|--:' : ''}|--:|--:|--:|--:|--:|--:|--:|`);
    for (const r of view.modes) {
      out.push(
        `| ${r.profile} | ${r.isBaseline ? `**${r.mode}** (baseline)` : r.mode} | ${latencyCell(r, 'p50')}${ci(r)} | ${latencyCell(r, 'p90')} | ${latencyCell(r, 'p99')} | ${latencyCell(r, 'max')} | ${formatRps(r)} | ${r.errors.failures > 0 ? `🔴 ${formatErrors(r)}` : formatErrors(r)} | ${r.isBaseline ? '—' : (overheadText(r, true) ?? '—')} | ${r.valid}/${r.repetitions} |`,
      );
    }
    out.push('', `${LATENCY_NOTE} Overhead: against the baseline mode in the same run.`);
    out.push(...analysisMarkdownLines(view));
  }
  const paths = pathNotes(view);
  if (paths.length) out.push('', `**${PATH_HEADING}**`, '', ...paths.map((p) => `- ${code(p.mode)}: ${escapeMarkdown(p.text)}`));
  const errors = errorNotes(view);
  if (errors.length) out.push('', '**🔴 Failed requests**', '', ...errors.map((n) => `- ${n}`));
  const notes = invalidNotes(view);
  // Which engine sent the arrivals (load/pacer-choice.ts): results measured with and without it differ in their tails.
  const pacer = view.run.tools['k6 pacer'];
  if (notes.length) out.push('', '**Invalid repetitions** (reported, never compared):', '', ...notes.map((n) => `- ${n}`));
  const dashboard = dashboardUrlOf(view);
  if (dashboard) out.push('', `[Trend dashboard](${dashboard})`);
  out.push(
    '',
    `<sub>run ${view.run.id} · ${view.run.platform} · ${view.run.machine.runnerClass} · k6 ${view.run.tools.k6 ?? '?'}${pacer ? ` with mesh-perf's pacer ${pacer}` : ''} · seed ${view.plan.seed}</sub>`,
    '',
  );
  return out.join('\n');
}

/** The analysis as markdown: how the intervals were made, a gate list with decisions, MDE and notes. */
function analysisMarkdownLines(view: RunView): string[] {
  const a = analysisLines(view);
  if (!a) return [];
  const lines = ['', a.intervals];
  if (a.rounds) lines.push('', a.rounds);
  if (a.gates.length > 0) lines.push('', '**Gates**', '', ...a.gates.map((g) => `- ${GATE_ICON[g.mark]} ${escapeMarkdown(g.line)}`));
  if (a.detectability) lines.push('', a.detectability);
  if (a.notes.length > 0) lines.push('', '**Notes**', '', ...a.notes.map((n) => `- ${escapeMarkdown(n)}`));
  return lines;
}
