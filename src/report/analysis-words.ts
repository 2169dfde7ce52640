// The analysis in words: analyzeRun hands over evidence and codes (results/evidence.ts); this makes
// the stored Analysis of results.json, whose gate lines, verdict reasons, notes, reference
// exclusions and detectability lines every output prints. Front ends call it once per analysis
// (pipeline.ts, `mesh-perf compare`). Files written before this step stored the same sentences,
// so old and new results render alike. Pure.
import type { KeyDifference } from '../analysis/scenario.ts';
import type { Analysis, GateResult } from '../results/analysis.ts';
import type {
  AnalysisEvidence,
  AnalysisNote,
  DetectabilityEvidence,
  GateEvidence,
  ReferenceExclusionEvidence,
  VerdictReason,
} from '../results/evidence.ts';
import { METRICS } from '../results/metrics.ts';
import { mdeSentence } from './detectability-words.ts';
import { jobToJobNote, wordGate } from './gate-words.ts';
import { verdictReasonText } from './verdict-words.ts';

export function wordAnalysis(evidence: AnalysisEvidence): Analysis {
  const worded = new Map(evidence.gates.map((gate) => [gate, wordGate(gate)] as const));
  const stored = (gate: AnalysisEvidence['gates'][number]): GateResult => worded.get(gate) ?? wordGate(gate);
  // Field by field, in the order results.json has always had.
  return {
    version: evidence.version,
    seed: evidence.seed,
    level: evidence.level,
    alpha: evidence.alpha,
    resamples: evidence.resamples,
    baseline: evidence.baseline,
    rounds: evidence.rounds,
    summaries: evidence.summaries,
    overheads: evidence.overheads,
    gates: evidence.gates.map(stored),
    verdict: evidence.verdict,
    verdictReasons: verdictReasonsText(evidence.verdictReasons, (r) => stored(r.gate).line),
    modesToExtend: evidence.modesToExtend,
    ...(evidence.ab ? { ab: evidence.ab } : {}),
    ...(evidence.reference
      ? { reference: { runIds: evidence.reference.runIds, excluded: evidence.reference.excluded.map(exclusionText) } }
      : {}),
    detectability: evidence.detectability.map((d) => detectabilityText(d, evidence.gates)),
    notes: [...evidence.notes.map(noteText), ...evidence.gates.flatMap((g) => jobToJobNote(g) ?? [])],
    // Set by the pipeline after the analysis, as it always was.
    ...(evidence.stopping ? { stopping: evidence.stopping } : {}),
  };
}

/** The verdict's reasons as stored in results.json (verdictReasons). */
export function verdictReasonsText(
  reasons: readonly VerdictReason[],
  gateLine?: (reason: Extract<VerdictReason, { kind: 'gate' }>) => string,
): string[] {
  return reasons.map((reason) => verdictReasonText(reason, gateLine));
}

function exclusionText(x: ReferenceExclusionEvidence): { runId: string; reason: string } {
  const where = `${x.mode} [${x.profile}]`;
  const reason =
    x.why === 'scenario'
      ? `${where}: ${(x.differences ?? []).map((d) => `${d.field} ${d.b} ≠ ${d.a}`).join('; ')}`
      : x.why === 'baseline'
        ? `${where}: baseline "${x.baseline}" missing or measured differently`
        : `${where}: no valid repetition`;
  return { runId: x.runId, reason };
}

/**
 * One statistic's MDE for the detectability lines: the regression gate's, against the reference
 * runs, where one judged this statistic (the figure its line states, so an output never gives two
 * for one mode); else the run's own, between two runs like this one.
 */
function detectabilityText(d: DetectabilityEvidence, gates: readonly GateEvidence[]): string {
  const label = METRICS[d.metric].label;
  const regression = gates.find(
    (g) =>
      g.kind === 'regression' && !g.skip && g.mde !== undefined && g.mode === d.mode && g.profile === d.profile && g.metric === d.metric,
  );
  if (regression)
    return `${d.mode} [${d.profile}]: ${mdeSentence(regression.mde, label, Math.min(...(regression.sizes ?? [d.n])), 'reference')}`;
  return `${d.mode} [${d.profile}]: ${mdeSentence(d.mde, label, d.n)}`;
}

function noteText(note: AnalysisNote): string {
  switch (note.code) {
    case 'baseline-not-in-run':
      return `baseline mode "${note.baseline}" is not in this run; overheads were not computed`;
    case 'gate-names-unknown-mode':
      return `gate "${note.gate}" names mode "${note.name}", which is not in this run (modes: ${note.known.join(', ')})`;
    case 'gate-names-unknown-profile':
      return `gate "${note.gate}" names profile "${note.name}", which is not in this run (profiles: ${note.known.join(', ')})`;
    case 'gate-applies-to-no-mode':
      return `gate "${note.gate}" applies to no mode of this run${note.overhead ? ' (overhead budgets skip the baseline mode)' : ''}`;
    case 'baseline-lacks-profile':
      return `gate "${note.gate}" skipped for ${note.mode}: baseline "${note.baseline}" has no ${note.profile} profile in this run`;
    case 'reference-unavailable':
      return `comparison with past runs skipped (${note.why}): the regression gate was not applied`;
    case 'no-reference-runs':
      return 'no reference runs: the regression gate was not applied (first run of this scenario, or no history configured)';
    case 'reference-none-matches':
      return `none of the ${note.runs} reference runs matches this run's scenario key; see reference.excluded`;
    case 'reference-none-comparable': {
      const { runs, self } = note;
      if (self === runs) return `no reference run can be compared: ${runs === 1 ? 'the only one is' : `all ${runs} are`} this run itself`;
      const others = runs - self;
      const shown = (list: string[]) => (list.length > 6 ? `${list.slice(0, 6).join(', ')} and ${list.length - 6} more` : list.join(', '));
      const which = `${others === 1 ? 'the one reference run' : `none of the ${others} reference runs`}${self > 0 ? ' besides this run itself' : ''} ${others === 1 ? 'cannot' : 'can'} be compared`;
      return note.theirs.length === 0
        ? `${which}: ${others === 1 ? 'it holds' : 'they hold'} no modes`
        : `${which}: ${others === 1 ? 'it has' : 'they have'} no mode and load profile in common with this run (this run: ${shown(note.ours)}; ${others === 1 ? 'its' : 'theirs'}: ${shown(note.theirs)})`;
    }
    case 'ab-one-instance-per-arm':
      return `A/B: each arm was one address (platform ${note.platform}), so an offset between the two servers themselves is not in the interval: a "within" or "slower" may be the servers, not the change; measure each arm on more than one server (platform local or a cluster) to have it in the interval`;
  }
}

/** "load: open 1000 rps × 10s (a) vs open 2000 rps × 10s (b)". */
export function explainDifferences(differences: readonly KeyDifference[], labelA = 'baseline', labelB = 'candidate'): string[] {
  return differences.map((d) => `${d.field}: ${d.a} (${labelA}) vs ${d.b} (${labelB})`);
}
