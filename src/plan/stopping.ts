// After a look of a run measuring until decided: stop (and why) or measure on. The pipeline's own
// rule, pure so bench/ab-gate can follow a synthetic run through the same looks.
import type { AnalysisEvidence } from '../results/evidence.ts';

export type LookStep =
  /** Measure the modes the analysis asks for until the next look. */
  | 'continue'
  /** The run is invalid already: more blocks would not make it valid. */
  | 'invalid'
  /** A gate failed the run while others still wanted blocks: the verdict is fail whatever they say. */
  | 'gate-failed'
  /** Nothing needs more blocks. */
  | 'decided'
  /** The last look, with a gate still undecided. */
  | 'budget';

export function stepAfterLook(analysis: Pick<AnalysisEvidence, 'verdict' | 'gates' | 'modesToExtend'>, last: boolean): LookStep {
  if (analysis.verdict === 'invalid') return 'invalid';
  // (A regression awaiting its confirmation at the next look has not failed the run yet.)
  const failed = analysis.gates.some((g) => g.decision === 'fail' && !g.pendingConfirmation && !g.reportOnly);
  if (failed && analysis.modesToExtend.length > 0) return 'gate-failed';
  if (analysis.modesToExtend.length === 0 && !(last && undecided(analysis))) return 'decided';
  return last ? 'budget' : 'continue';
}

/** A gate that measuring more could settle is still open: an A/B or regression gate left inconclusive. */
function undecided(analysis: Pick<AnalysisEvidence, 'gates'>): boolean {
  return analysis.gates.some((g) => (g.kind === 'ab' || g.kind === 'regression') && !g.reportOnly && g.decision === 'inconclusive');
}
