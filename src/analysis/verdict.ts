// The one owner of a run's verdict. Everything that can make a run other than a pass is decided
// here, from the results and the analysis's gate decisions, as structured reasons:
//   invalid       the run ended early, planned repetitions did not run, a repetition was invalid,
//                 or a mode has no valid repetition: nothing about it can be compared;
//   fail          a gate failed (thresholds, overhead budgets, a regression after its
//                 confirmation round) or the user's own k6 script threshold failed;
//   inconclusive  no gate failed, but one could not decide with the repetitions it had.
// The worst reason wins: invalid > fail > inconclusive > pass, with two exceptions that fail the
// run even when the same fault made repetitions invalid, since they are a result, not a broken
// measurement: failed requests above load.maxErrorRate (the error gate; timeouts holding every VU
// also invalidate), and a mesh proxy the load crashed or OOM-killed (its repetition is invalid,
// never compared, and the crash is the finding). The exit code follows from the
// verdict in exitCodeFor, which the CLI and the action both use. Pure.
import type { RunResult, Verdict } from '../results/types.ts';
import { EXIT, type ExitCode } from '../util/errors.ts';
import { roundOf } from './summary.ts';
import type { GateEvidence, VerdictEffect, VerdictReason } from '../results/evidence.ts';
import { ERROR_GATE } from './error-gate.ts';

export type { VerdictEffect, VerdictReason } from '../results/evidence.ts';

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
export function decideVerdict(result: RunResult, gates: readonly GateEvidence[] = []): VerdictDecision {
  const reasons = [...invalidReasons(result), ...crashReasons(result), ...scriptThresholdReasons(result), ...gateReasons(gates)];
  const has = (effect: VerdictEffect) => reasons.some((r) => r.effect === effect);
  const errorsFailed = reasons.some(
    (r) => (r.kind === 'gate' && r.gate.gate === ERROR_GATE && r.effect === 'fail') || r.kind === 'proxy-crash',
  );
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

function invalidReasons(result: RunResult): VerdictReason[] {
  const out: VerdictReason[] = [];
  if (result.run?.aborted) out.push({ kind: 'aborted', effect: 'invalid', why: result.run.aborted });
  const planned = result.plan?.trials?.length ?? 0;
  const done = result.modes.reduce((n, m) => n + m.repetitions.length, 0);
  if (done < planned) out.push({ kind: 'missing-repetitions', effect: 'invalid', missing: planned - done, planned });
  let total = 0;
  for (const mode of result.modes) {
    for (const r of mode.repetitions) {
      if (r.valid) continue;
      total++;
      if (total > MAX_INVALID_LINES) continue;
      out.push({
        kind: 'invalid-repetition',
        effect: 'invalid',
        mode: mode.name,
        profile: mode.profile,
        trial: r.trial,
        block: r.block,
        round: roundOf(r),
        why: r.invalidReasons ?? [],
      });
    }
  }
  if (total > MAX_INVALID_LINES) out.push({ kind: 'more-invalid-repetitions', effect: 'invalid', more: total - MAX_INVALID_LINES });
  for (const mode of result.modes) {
    if (mode.repetitions.length > 0 && mode.repetitions.some((r) => r.valid)) continue;
    out.push({ kind: 'no-valid-repetition', effect: 'invalid', mode: mode.name, profile: mode.profile });
  }
  return out;
}

/** A mesh proxy of a repetition's path that crashed under the load (repetitions[].disruptions, crash). */
function crashReasons(result: RunResult): VerdictReason[] {
  const out: VerdictReason[] = [];
  for (const mode of result.modes)
    for (const r of mode.repetitions)
      for (const d of r.disruptions ?? []) {
        if (!d.crash) continue;
        const how = [d.reason, d.exitCode !== undefined ? `exit ${d.exitCode}` : undefined].filter(Boolean).join(', ');
        out.push({
          kind: 'proxy-crash',
          effect: 'fail',
          mode: mode.name,
          profile: mode.profile,
          trial: r.trial,
          proxy: d.component,
          pod: d.pod,
          how,
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
        for (const [expression, ok] of Object.entries(exprs)) {
          const key = JSON.stringify([mode.name, metric, expression]);
          if (ok || seen.has(key)) continue;
          seen.add(key);
          out.push({ kind: 'script-threshold', effect: 'fail', mode: mode.name, profile: mode.profile, metric, expression });
        }
      }
    }
  }
  return out;
}

function gateReasons(gates: readonly GateEvidence[]): VerdictReason[] {
  return gates.flatMap((gate): VerdictReason[] => {
    if (gate.reportOnly || (gate.decision !== 'fail' && gate.decision !== 'inconclusive')) return [];
    return [{ kind: 'gate', effect: gate.decision, mode: gate.mode, profile: gate.profile, gate }];
  });
}
