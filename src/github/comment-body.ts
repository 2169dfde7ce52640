// The sticky PR comment's body. Pure. It leads with the verdict and a compact table (p50, p99,
// overhead vs the baseline mode, change vs the PR's base from history), then collapsible
// details, links, and a hidden marker that finds the comment again on the next run. GitHub
// rejects bodies over 65,536 characters, so the details fold into a link to the job summary.
import { listedGates, NO_MEASUREMENTS } from '../report/cells.ts';
import type { RunView } from '../report/view.ts';
import { linksLine, type ReportLinks } from './job-summary.ts';
import { code, details, link, text } from '../report/markdown-kit.ts';
import {
  abSection,
  armsFromBaseSection,
  baseNote,
  gatesTable,
  intervalNote,
  invalidTable,
  pathSection,
  reasonsList,
  resultsTable,
  roundsText,
  tableRows,
  verdictHeadline,
} from './tables.ts';

/** GitHub's limit, less a margin: GitHub counts characters, we count UTF-16 units, which is larger or equal. */
export const COMMENT_LIMIT = 65_536 - 1_024;

/**
 * One sticky comment per PR per suite and per workflow that measured it. The suite alone is not
 * enough: two workflows measuring the same suite (a PR gate and the fork-safe pair, say) are two
 * checks with two statuses, and one shared comment would show whichever finished last. The
 * workflow is the benchmark's (for the fork-safe commenter, the workflow_run's), so a commenter
 * workflow and the benchmark it reports on share one comment. Keys are reduced to safe characters.
 */
export function commentMarker(suite: string, workflow?: string): string {
  const source = workflow ? ` workflow=${markerKey(workflow, '')}` : '';
  return `<!-- mesh-perf:sticky-comment suite=${markerKey(suite, 'default')}${source} -->`;
}

function markerKey(value: string, fallback: string): string {
  return (
    value
      .toLowerCase()
      .replace(/[^a-z0-9-]/g, '-')
      .slice(0, 60) || fallback
  );
}

export interface CommentInput {
  view: RunView;
  links: ReportLinks;
  /** Shown above the table, e.g. "results from the fork PR's benchmark run". */
  provenance?: string;
  /** Name of the workflow whose run measured these results (keys the marker with the suite). */
  workflow?: string;
  limit?: number;
}

export interface RenderedComment {
  body: string;
  folded: boolean;
}

export function renderComment(input: CommentInput): RenderedComment {
  const limit = input.limit ?? COMMENT_LIMIT;
  const full = compose(input, 'full');
  if (full.length <= limit) return { body: full, folded: false };
  const folded = compose(input, 'folded');
  if (folded.length <= limit) return { body: folded, folded: true };
  // Even the table is too big (hundreds of mode × load rows): keep the head of it.
  for (let rows = Math.max(1, input.view.modes.length - 1); rows >= 1; rows = Math.floor(rows * 0.8)) {
    const body = compose(input, 'folded', rows);
    if (body.length <= limit) return { body, folded: true };
    if (rows === 1) break;
  }
  return { body: compose(input, 'folded', 0), folded: true };
}

function compose(input: CommentInput, mode: 'full' | 'folded', maxRows?: number): string {
  const { view, links } = input;
  const modes = tableRows(view);
  const comparisons = view.reference?.comparisons ?? [];
  const parts: string[] = [];
  parts.push(`### mesh-perf · suite ${code(view.suite)} · ${verdictHeadline(view)}`);
  if (input.provenance) parts.push(`<sub>${text(input.provenance)}</sub>`);
  parts.push(abSection(view));
  parts.push(armsFromBaseSection(view));
  parts.push(reasonsList(view));
  const rows = maxRows === undefined ? modes : modes.slice(0, maxRows);
  if (view.modes.length === 0) parts.push(NO_MEASUREMENTS);
  if (rows.length > 0) {
    parts.push(resultsTable(view, rows, { p90: false, comparisons, baseLabel: view.reference?.described }));
  }
  if (rows.length < view.modes.length) {
    parts.push(`_${view.modes.length - rows.length} more rows are in the ${link('job summary', links.runUrl)}._`);
  }
  parts.push(`<sub>${intervalNote(view)} ${baseNote(view.reference)}</sub>`);
  parts.push(pathSection(view));
  const detectability = view.analysis?.detectability ?? [];
  if (detectability.length > 0) parts.push(`**Minimum detectable effect:** ${detectability.map(text).join('; ')}.`);

  if (mode === 'full') {
    // The A/B gates are the A/B section's lines: the table holds the others.
    const gates = listedGates(view);
    const failed = gates.filter((g) => g.result.decision === 'fail').length;
    const undecided = gates.filter((g) => g.result.decision === 'inconclusive').length;
    const counts = `${gates.length} checked, ${failed} failed${undecided > 0 ? `, ${undecided} inconclusive` : ''}`;
    if (gates.length > 0) parts.push(details(`${view.ab ? 'Other gates' : 'Gates'}: ${counts}`, gatesTable(gates), failed + undecided > 0));
    if (view.invalid.length > 0) parts.push(details(`Invalid repetitions: ${view.invalid.length}`, invalidTable(view.invalid, 50)));
    parts.push(details('Run details', runDetails(input)));
  } else {
    parts.push(
      `<sub>Gate evidence, invalid repetitions and run details were folded to stay under GitHub's 65,536-character comment limit: see the ${link('job summary', links.runUrl)}.</sub>`,
    );
  }
  parts.push(
    linksLine({ ...links, runUrl: undefined }) +
      (links.runUrl ? `${links.artifactUrl || links.dashboardUrl ? ' · ' : ''}${link('Job summary', links.runUrl)}` : ''),
  );
  parts.push(commentMarker(view.suite, input.workflow));
  return parts.filter(Boolean).join('\n\n');
}

function runDetails(input: CommentInput): string {
  const { view } = input;
  const lines = [
    `- platform: ${code(view.platform) || 'unknown'}; baseline mode: ${code(view.baseline)}`,
    `- load profiles: ${view.profiles.map((p) => code(p)).join(', ')}`,
    `- interleaving seed: ${view.seed}`,
    roundsText(view) ? `- measured: ${text(roundsText(view))}` : '',
    view.reference
      ? `- base reference: ${text(view.reference.described)}, ${view.reference.runs} run(s)`
      : '- base reference: none found in history',
    view.runId ? `- run id: ${code(view.runId)}` : '',
  ];
  return lines.filter(Boolean).join('\n');
}
