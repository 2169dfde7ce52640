// A verdict's reasons in words (results.json's verdictReasons, every output's list of why a run is
// not a pass) and the one sentence a non-zero exit ends with. The reasons are analysis/verdict.ts's
// codes; a gate's reason is the gate's own line. Pure.
import { exitCodeFor, type InconclusivePolicy } from '../analysis/verdict.ts';
import type { Verdict } from '../results/types.ts';
import type { VerdictReason } from '../results/evidence.ts';
import { EXIT } from '../util/errors.ts';
import { wordGate } from './gate-words.ts';

/** One line per reason; `gateLine` words a gate's reason (default: the gate's own line). */
export function verdictReasonText(
  reason: VerdictReason,
  gateLine = (r: Extract<VerdictReason, { kind: 'gate' }>) => wordGate(r.gate).line,
): string {
  const where = `${reason.mode} [${reason.profile}]`;
  switch (reason.kind) {
    case 'aborted':
      return `run ended early: ${reason.why}`;
    case 'missing-repetitions':
      return `${reason.missing} of ${reason.planned} planned repetitions did not run`;
    case 'invalid-repetition':
      return `invalid repetition: ${where} trial ${reason.trial} (block ${reason.block}, round ${reason.round}): ${reason.why.length > 0 ? reason.why.join('; ') : 'marked invalid'}`;
    case 'more-invalid-repetitions':
      return `… and ${reason.more} more invalid repetitions`;
    case 'no-valid-repetition':
      return `${where} has no valid repetition; nothing about it can be compared`;
    case 'proxy-crash':
      return `${reason.proxy} crashed under the load: ${where} trial ${reason.trial}, pod ${reason.pod}${reason.how ? ` (${reason.how})` : ''}; its repetition is invalid and not compared, the crash fails the run`;
    case 'script-threshold':
      return `script threshold failed: ${reason.mode}: ${reason.metric} ${reason.expression}`;
    case 'gate':
      return gateLine(reason);
  }
}

/** One sentence for a non-zero exit (setFailed, the CLI's last line); undefined for exit 0. */
export function exitMessage(verdict: Verdict, reasons: readonly string[], inconclusive: InconclusivePolicy = 'warn'): string | undefined {
  const why = reasons.length > 0 ? `: ${reasons.join('; ')}` : '';
  if (exitCodeFor(verdict, inconclusive) === EXIT.pass) return undefined;
  if (verdict === 'fail') return `mesh-perf: gate failed${why}`;
  if (verdict === 'inconclusive') return `mesh-perf: inconclusive, and gates.regression.inconclusive is "fail"${why}`;
  return `mesh-perf: the run is invalid and was not compared${why}`;
}
