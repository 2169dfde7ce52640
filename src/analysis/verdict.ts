// The one owner of a run's verdict. Everything that can make a run other than a pass is decided
// here, from the results and the analysis's gate decisions, as structured reasons:
//   invalid       the run ended early, planned repetitions did not run, a repetition was invalid,
//                 or a mode has no valid repetition: nothing about it can be compared;
//   fail          a gate failed (thresholds, overhead budgets, a regression after its
//                 confirmation round) or the user's own k6 script threshold failed;
//   inconclusive  no gate failed, but one could not decide with the repetitions it had.
// The worst reason wins: invalid > fail > inconclusive > pass, with one exception: failed
// requests above load.maxErrorRate (the error gate) fail the run even when the same failures
// (timeouts holding every VU) also made repetitions invalid; they are a result, not a broken
// measurement. The exit code follows from the
// verdict in exitCodeFor, which the CLI and the action both use. Pure.
import type { RunResult, Verdict } from '../results/types.ts';
import { EXIT, type ExitCode } from '../util/errors.ts';
import { roundOf } from './summary.ts';
import type { GateResult } from '../results/analysis.ts';
import { ERROR_GATE } from './error-gate.ts';

/** What a reason makes of the run. */
export type VerdictEffect = 'invalid' | 'fail' | 'inconclusive';

export type VerdictReasonKind =
  | 'aborted'
  | 'missing-repetitions'
  | 'invalid-repetition'
  | 'no-valid-repetition'
  | 'script-threshold'
  | 'gate';

export interface VerdictReason {
  kind: VerdictReasonKind;
  effect: VerdictEffect;
  /** Absent for run-wide reasons (aborted, missing repetitions). */
  mode?: string;
  profile?: string;
  /** One line, as results.json's verdictReasons and every report show it. */
  message: string;
  /** The gate this reason comes from (kind "gate"). */
  gate?: GateResult;
}

export interface VerdictDecision {
  verdict: Verdict;
  /** Invalid reasons first, then failures, then inconclusive gates. */
  reasons: VerdictReason[];
  /** Modes whose regression must survive a confirmation round before it fails the run. */
  modesToConfirm: string[];
}

/** gates.regression.inconclusive: whether an inconclusive verdict exits 0 (warn) or 1 (fail). */
export type InconclusivePolicy = 'warn' | 'fail';

const MAX_INVALID_LINES = 10;

/**
 * The verdict of a run. `gates` are the analysis's decisions; without them (analysis failed or
 * absent) only validity and the script's own thresholds decide.
 */
export function decideVerdict(result: RunResult, gates: readonly GateResult[] = []): VerdictDecision {
  const reasons = [...invalidReasons(result), ...scriptThresholdReasons(result), ...gateReasons(gates)];
  const has = (effect: VerdictEffect) => reasons.some((r) => r.effect === effect);
  const errorsFailed = reasons.some((r) => r.gate?.gate === ERROR_GATE && r.effect === 'fail');
  const verdict: Verdict = errorsFailed
    ? 'fail'
    : has('invalid')
      ? 'invalid'
      : has('fail')
        ? 'fail'
        : has('inconclusive')
          ? 'inconclusive'
          : 'pass';
  const order: Record<VerdictEffect, number> = errorsFailed
    ? { fail: 0, invalid: 1, inconclusive: 2 }
    : { invalid: 0, fail: 1, inconclusive: 2 };
  reasons.sort((a, b) => order[a.effect] - order[b.effect]);
  const modesToConfirm =
    verdict === 'invalid' ? [] : [...new Set(gates.filter((g) => g.decision === 'fail' && g.pendingConfirmation).map((g) => g.mode))];
  return { verdict, reasons, modesToConfirm };
}

/** The verdict's exit code: 0 pass, 1 a gate failed, 3 invalid run; inconclusive 0, or 1 under policy "fail". */
export function exitCodeFor(verdict: Verdict, inconclusive: InconclusivePolicy = 'warn'): ExitCode {
  switch (verdict) {
    case 'pass':
      return EXIT.pass;
    case 'fail':
      return EXIT.gateFailed;
    case 'inconclusive':
      return inconclusive === 'fail' ? EXIT.gateFailed : EXIT.pass;
    case 'invalid':
      return EXIT.environment;
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

function invalidReasons(result: RunResult): VerdictReason[] {
  const out: VerdictReason[] = [];
  const invalid = (kind: VerdictReasonKind, message: string, where: { mode?: string; profile?: string } = {}) =>
    out.push({ kind, effect: 'invalid', ...where, message });
  if (result.run?.aborted) invalid('aborted', `run ended early: ${result.run.aborted}`);
  const planned = result.plan?.trials?.length ?? 0;
  const done = result.modes.reduce((n, m) => n + m.repetitions.length, 0);
  if (done < planned) invalid('missing-repetitions', `${planned - done} of ${planned} planned repetitions did not run`);
  let total = 0;
  for (const mode of result.modes) {
    for (const r of mode.repetitions) {
      if (r.valid) continue;
      total++;
      if (total > MAX_INVALID_LINES) continue;
      const why = r.invalidReasons?.length ? r.invalidReasons.join('; ') : 'marked invalid';
      invalid(
        'invalid-repetition',
        `invalid repetition: ${mode.name} [${mode.profile}] trial ${r.trial} (block ${r.block}, round ${roundOf(r)}): ${why}`,
        { mode: mode.name, profile: mode.profile },
      );
    }
  }
  if (total > MAX_INVALID_LINES) invalid('invalid-repetition', `… and ${total - MAX_INVALID_LINES} more invalid repetitions`);
  for (const mode of result.modes) {
    if (mode.repetitions.length > 0 && mode.repetitions.some((r) => r.valid)) continue;
    invalid('no-valid-repetition', `${mode.name} [${mode.profile}] has no valid repetition; nothing about it can be compared`, {
      mode: mode.name,
      profile: mode.profile,
    });
  }
  return out;
}

function scriptThresholdReasons(result: RunResult): VerdictReason[] {
  const seen = new Set<string>();
  const out: VerdictReason[] = [];
  for (const mode of result.modes) {
    for (const rep of mode.repetitions) {
      for (const [metric, exprs] of Object.entries(rep.scriptThresholds ?? {})) {
        for (const [expr, ok] of Object.entries(exprs)) {
          const message = `script threshold failed: ${mode.name}: ${metric} ${expr}`;
          if (ok || seen.has(message)) continue;
          seen.add(message);
          out.push({ kind: 'script-threshold', effect: 'fail', mode: mode.name, profile: mode.profile, message });
        }
      }
    }
  }
  return out;
}

function gateReasons(gates: readonly GateResult[]): VerdictReason[] {
  return gates.flatMap((gate): VerdictReason[] => {
    if (gate.reportOnly || (gate.decision !== 'fail' && gate.decision !== 'inconclusive')) return [];
    return [{ kind: 'gate', effect: gate.decision, mode: gate.mode, profile: gate.profile, message: gate.line, gate }];
  });
}
