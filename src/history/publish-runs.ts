// Publishing runs to a store as the CLI does it, one function behind `mesh-perf publish` and
// `mesh-perf run` with history.publish (or --publish true): the store's publish (retention, the
// suite index, the dashboard), its warnings, the change-point gate on what the new runs made
// appear, and the lines that say what happened. Runs that do not belong in history
// (history/publishable.ts) are left out by the store, with a warning.
import type { RunResult } from '../results/types.ts';
import type { Logger } from '../util/log.ts';
import {
  type ChangePointGateMode,
  type ChangePointGateResult,
  type ConfirmChangePoints,
  evaluateChangePointGate,
} from './change-point-gate.ts';
import { unpublishableReason } from './publishable.ts';
import type { AnyStore } from './open-store.ts';
import type { PublishOutcome } from './types.ts';

export interface PublishReport {
  outcome: PublishOutcome;
  changePointGate: ChangePointGateResult;
  /** 1 when the change-point gate failed (gates.changePoint: fail), else 0. */
  exitCode: 0 | 1;
  /** What was published, for the terminal: "<store>: 1 run published, commit 0123456789ab". */
  lines: string[];
}

/** The runs among `results` that do not belong in history, each with why. */
export function refusedRuns(results: readonly RunResult[]): { id: string; reason: string }[] {
  return results.flatMap((r) => {
    const reason = unpublishableReason(r);
    return reason === undefined ? [] : [{ id: r.run.id, reason }];
  });
}

export async function publishRuns(
  store: AnyStore,
  results: readonly RunResult[],
  gate: { mode: ChangePointGateMode; minEffectPct: number; confirm?: ConfirmChangePoints },
  log: Logger,
): Promise<PublishReport> {
  const publishable = results.length - refusedRuns(results).length;
  log.phase(`Publishing ${plural(publishable, 'run')} to ${store.describe()}`);
  const outcome = await store.publish([...results]);
  for (const warning of outcome.warnings) log.warn(warning);
  const changePointGate = evaluateChangePointGate(outcome.changePoints ?? [], gate.mode, gate.minEffectPct, gate.confirm);
  for (const line of changePointGate.lines) log.warn(line);
  const parts = [
    `${plural(outcome.added.length, 'run')} published`,
    outcome.unchanged.length ? `${outcome.unchanged.length} already there` : '',
    outcome.pruned.length ? `${outcome.pruned.length} pruned by retention` : '',
    outcome.compacted?.length ? `${plural(outcome.compacted.length, 'older run')} stored without per-second timelines` : '',
    outcome.commit
      ? `commit ${outcome.commit.slice(0, 12)}${outcome.attempts > 1 ? ` after ${outcome.attempts} attempts` : ''}`
      : outcome.added.length || outcome.pruned.length
        ? ''
        : 'nothing to commit',
  ].filter(Boolean);
  const lines = [`${store.describe()}: ${parts.join(', ')}`];
  if (changePointGate.decision === 'warn' || changePointGate.decision === 'fail')
    lines.push(`change-point gate (${changePointGate.mode}): ${plural(changePointGate.raised.length, 'new slowdown')}`);
  if (changePointGate.decision === 'awaiting')
    lines.push(
      `change-point gate (${changePointGate.mode}): ${plural(changePointGate.raised.length, 'new slowdown')} awaiting confirmation (mesh-perf confirm, then publish --confirmation)`,
    );
  return { outcome, changePointGate, exitCode: changePointGate.decision === 'fail' ? 1 : 0, lines };
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
