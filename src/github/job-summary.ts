// The job summary ($GITHUB_STEP_SUMMARY): the full results table with intervals, verdict with
// reasons, gates with their evidence, detectability, invalid repetitions, and links. Pure. GitHub
// refuses a step summary over 1 MiB, so optional sections are dropped (with a note) until it fits.
import { listedGates, NO_MEASUREMENTS } from '../report/cells.ts';
import type { RunView } from '../report/view.ts';
import { code, details, link, text, utf8Bytes } from '../report/markdown-kit.ts';
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

export const SUMMARY_LIMIT_BYTES = 1024 * 1024;

export interface ReportLinks {
  /** This workflow run's page: job summary and artifacts. */
  runUrl?: string;
  /** Where the results/report artifact can be downloaded. */
  artifactUrl?: string;
  dashboardUrl?: string;
  /** Path of report.html inside the artifact, for the reader who downloads it. */
  reportFile?: string;
}

export interface SummaryInput {
  view: RunView;
  links: ReportLinks;
  /** Notices to show on top, e.g. why no PR comment was posted. */
  notices?: string[];
  limitBytes?: number;
}

export function renderJobSummary(input: SummaryInput): string {
  const { view, links } = input;
  const limit = input.limitBytes ?? SUMMARY_LIMIT_BYTES;
  const modes = tableRows(view);
  const comparisons = view.reference?.comparisons ?? [];
  const sections: { body: string; optional: boolean; name: string }[] = [];
  const add = (body: string, optional = false, name = '') => body && sections.push({ body, optional, name });

  add(`## mesh-perf · suite ${code(view.suite)} · ${verdictHeadline(view)}`);
  add(abSection(view));
  add(armsFromBaseSection(view));
  add(runLine(view));
  for (const notice of input.notices ?? []) add(`> [!NOTE]\n> ${text(notice)}`);
  add(reasonsList(view));
  add('### Results');
  if (view.modes.length === 0) add(NO_MEASUREMENTS);
  else {
    add(resultsTable(view, modes, { p90: true, comparisons, baseLabel: view.reference?.described }));
    add(
      `<sub>${intervalNote(view)} Overhead is against the baseline mode of this same run, paired by interleaved block. ${baseNote(view.reference)}</sub>`,
    );
    add(pathSection(view));
  }
  // The A/B gates are the A/B section's lines: the table holds the others.
  const gates = listedGates(view);
  if (gates.length > 0) {
    add(view.ab ? '### Other gates' : '### Gates');
    add(gatesTable(gates), true, 'gate table');
  }
  const { detectability = [], notes = [] } = view.analysis ?? {};
  if (detectability.length > 0) {
    add('### What this run can detect');
    add(detectability.map((line) => `- ${text(line)}`).join('\n'), true, 'detectability');
  }
  if (notes.length > 0) {
    add('### Notes');
    add(notes.map((line) => `- ${text(line)}`).join('\n'), true, 'notes');
  }
  if (view.invalid.length > 0) {
    add(`### Invalid repetitions (${view.invalid.length})`);
    add('Invalid repetitions are reported, never compared: a run with any of them ends `invalid`.');
    add(details('Which repetitions and why', invalidTable(view.invalid, 500), view.invalid.length <= 10), true, 'invalid repetition table');
  }
  add(linksLine(links));

  let out = join(sections);
  const dropped: string[] = [];
  // Drop the biggest optional section first until the summary fits.
  while (utf8Bytes(out) > limit - 512) {
    const candidates = sections.filter((s) => s.optional);
    if (candidates.length === 0) break;
    const biggest = candidates.reduce((a, b) => (utf8Bytes(a.body) >= utf8Bytes(b.body) ? a : b));
    dropped.push(biggest.name);
    biggest.body = `_The ${biggest.name} was left out to keep this summary under GitHub's 1 MiB limit; it is in results.json in the artifact._`;
    biggest.optional = false;
    out = join(sections);
  }
  if (utf8Bytes(out) > limit - 512)
    out = `${truncateBytes(out, limit - 512)}\n\n_Summary truncated at GitHub's 1 MiB limit; the full results are in the artifact._`;
  return `${out}\n`;
}

function runLine(view: RunView): string {
  const profiles = view.profiles;
  const modeCount = view.modeOrder.length;
  const parts = [
    `platform ${code(view.platform) || 'unknown'}`,
    modeCount > 0
      ? `${modeCount} mode${modeCount === 1 ? '' : 's'} × ${profiles.length} load profile${profiles.length === 1 ? '' : 's'} (${profiles.map((p) => code(p)).join(', ')})`
      : '',
    text(roundsText(view)),
    `seed ${view.seed}`,
    view.runId ? `run ${code(view.runId)}` : '',
  ].filter(Boolean);
  return parts.join(' · ');
}

export function linksLine(links: ReportLinks): string {
  const items = [
    links.artifactUrl
      ? link('Results and HTML report (artifact)', links.artifactUrl) + (links.reportFile ? ` (${code(links.reportFile)})` : '')
      : '',
    links.dashboardUrl ? link('Trend dashboard', links.dashboardUrl) : '',
    links.runUrl ? link('Workflow run', links.runUrl) : '',
  ].filter(Boolean);
  return items.join(' · ');
}

function join(sections: { body: string }[]): string {
  return sections
    .map((s) => s.body)
    .filter(Boolean)
    .join('\n\n');
}

function truncateBytes(value: string, bytes: number): string {
  let out = value;
  while (utf8Bytes(out) > bytes) out = out.slice(0, Math.floor(out.length * 0.9));
  return out;
}
