// Records confirmations in a store: each suite's confirmations file gains them (the latest per
// change point kept) and its change-points file is written again with each change point's verdict,
// so the dashboard and the run page show it. Nothing else changes. The git backend re-runs this on
// a fresh fetch after a rejected push, as it does a publish. Pure apart from reading the StoreTree.
import type { ConfirmationRecord } from '../confirm/record.ts';
import { UsageError } from '../util/errors.ts';
import { attachChangedFields } from './changed-fields.ts';
import { suiteChangePoints } from './change-points.ts';
import { mergeConfirmations, serializeConfirmations } from './confirmations.ts';
import { confirmationsPath, suiteDir } from './layout.ts';
import { MARKER_SCHEMA_VERSION } from './marker.ts';
import { trendOffsets } from './settled.ts';
import { dropUnchanged, type PlanOptions, readMarker, writeSuite } from './store-shell.ts';
import { loadSuiteState } from './suite-state.ts';
import { emptyChanges, type StoreChanges, type StoreTree } from './tree.ts';

export interface ConfirmationPlan {
  changes: StoreChanges;
  /** Records stored, and those whose change point the suite's series no longer show (stored all the same). */
  recorded: ConfirmationRecord[];
  warnings: string[];
}

export async function planConfirmations(
  tree: StoreTree,
  records: readonly ConfirmationRecord[],
  options: PlanOptions,
): Promise<ConfirmationPlan> {
  const { marker, layout } = await readMarker(tree, options.storeLabel, false);
  if (marker.suites.length === 0)
    throw new UsageError(`history store ${options.storeLabel} holds no runs: a confirmation answers a change point of published runs`);
  if (layout < MARKER_SCHEMA_VERSION)
    throw new UsageError(
      `history store ${options.storeLabel} is in layout ${layout}; convert it first (mesh-perf report --store, or the next publish)`,
    );
  const plan: ConfirmationPlan = { changes: emptyChanges(), recorded: [], warnings: [] };
  for (const suite of [...new Set(records.map((r) => suiteDir(r.suite)))].sort()) {
    const own = records.filter((r) => r.suite === suite);
    const state = await loadSuiteState(tree, suite, options.storeLabel, { incoming: [], now: options.now });
    if (state.index.runs.length === 0 && !state.settled)
      throw new UsageError(
        `history store ${options.storeLabel} has no runs of suite ${suite}; the confirmation of ${own[0]!.mode} cannot be recorded there`,
      );
    state.confirmations = mergeConfirmations(state.confirmations, own);
    const entries = state.settled ? [...state.settled.tail, ...state.index.runs] : state.index.runs;
    const changes = suiteChangePoints(entries, state.settled ? { offsets: trendOffsets(state.settled) } : {});
    await attachChangedFields(tree, suite, changes, entries, state.files, options.storeLabel);
    for (const record of own) {
      const listed = changes.changePoints.some(
        (cp) => cp.branch === record.branch && cp.profile === record.profile && cp.mode === record.mode && cp.after === record.after,
      );
      if (!listed)
        plan.warnings.push(
          `the change point ${record.profile} · ${record.mode} at run ${record.after} (branch ${record.branch || '(none)'}) is not among suite ${suite}'s change points now; its verdict is kept and shows when it is again`,
        );
    }
    writeSuite(state, plan.changes, changes);
    plan.changes.writes.set(confirmationsPath(suite), serializeConfirmations(suite, state.confirmations));
    plan.recorded.push(...own);
  }
  plan.changes = await dropUnchanged(plan.changes, tree);
  return plan;
}
