// The workflow_run commenter's check of the artifact against what GitHub itself says about the
// benchmark run. The artifact is written by PR code and can claim anything; the run's conclusion
// comes from GitHub. The benchmark job fails whenever the verdict is not pass, so a pass claimed by
// a run that did not succeed is never shown as a pass. Pure.
import type { RunResult } from '../results/types.ts';

export interface Reconciled {
  result: RunResult;
  /** Why the verdict shown differs from the artifact's, for a warning; undefined when they agree. */
  disagreement?: string;
}

export function reconcileWithConclusion(result: RunResult, conclusion: string | null): Reconciled {
  if (result.verdict !== 'pass' || conclusion === 'success') return { result };
  const concluded = conclusion ? `concluded ${conclusion}` : 'has no conclusion';
  const reason =
    `The benchmark run ${concluded}, but its results artifact says pass: shown as invalid, not as a pass. ` +
    'Either a step after the benchmark failed, or the artifact was not written by a passing benchmark; see the run.';
  // The artifact's gate decisions are its claims too: shown, they would read "✅ pass" under an
  // invalid verdict. Without them the comment keeps the figures, marked invalid, and no decision.
  const { analysis: _claimed, ...figures } = result;
  return {
    result: { ...figures, verdict: 'invalid', verdictReasons: [reason, ...result.verdictReasons] },
    disagreement: `the benchmark run ${concluded} but the artifact claims pass; the comment shows invalid`,
  };
}
