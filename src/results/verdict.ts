// The run's verdict from what the load engine alone knows: validity and a user script's own
// thresholds. The analysis stage refines it with statistics, gates and history.
import type { RunResult, Verdict } from './types.ts';

export function decideVerdict(result: RunResult): { verdict: Verdict; reasons: string[] } {
  const reasons: string[] = [];
  if (result.run.aborted) reasons.push(`run ended early: ${result.run.aborted}`);
  const planned = result.plan.trials.length;
  const done = result.modes.reduce((n, m) => n + m.repetitions.length, 0);
  if (done < planned) reasons.push(`${planned - done} of ${planned} planned repetitions did not run`);
  const invalid = result.modes.flatMap((m) => m.repetitions.filter((r) => !r.valid).map(() => m.name));
  if (invalid.length > 0) reasons.push(`${invalid.length} invalid repetition${invalid.length > 1 ? 's' : ''} (${[...new Set(invalid)].join(', ')}): results are reported, not compared`);
  if (reasons.length > 0) return { verdict: 'invalid', reasons };
  const failedThresholds = new Set<string>();
  for (const mode of result.modes) {
    for (const rep of mode.repetitions) {
      for (const [metric, exprs] of Object.entries(rep.scriptThresholds ?? {})) {
        for (const [expr, ok] of Object.entries(exprs)) if (!ok) failedThresholds.add(`${mode.name}: ${metric} ${expr}`);
      }
    }
  }
  if (failedThresholds.size > 0) return { verdict: 'fail', reasons: [...failedThresholds].map((t) => `script threshold failed: ${t}`) };
  return { verdict: 'pass', reasons: [] };
}
