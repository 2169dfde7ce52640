// One confirmation against a history store, as `mesh-perf confirm` and the action's confirm mode
// run it: the change point (named, or the newest raised without a verdict), the day's budget, the
// change point's two runs read from the store, the confirmation runs (deps.runRound: the pipeline
// on this machine), the record worded. Reads the store only; recording the verdict is a separate
// write (recordConfirmations), so the job that measures needs no write access.

import type { ConfirmationRecord } from '../confirm/record.ts';
import { type ConfirmDeps, type ConfirmOptions, confirmChangePoint, newDraft } from '../confirm/run.ts';
import { wordConfirmation } from '../report/confirm-words.ts';
import { UsageError } from '../util/errors.ts';
import type { SuiteChangePoint } from './change-points.ts';
import { confirmationsToday, pickChangePoint } from './confirm-target.ts';
import type { ResultStore } from './types.ts';

export interface ConfirmRequest {
  suite: string;
  /** The branch whose series the change point is on (the daily runs'); unset: the newest run's. */
  branch?: string;
  /** "newest" (default) or "<profile>/<mode>/<metric>@<run id>". */
  changePoint?: string;
  /** The change-point gate's practical minimum, percent (gates.regression.minEffectPct). */
  minEffectPct: number;
  /** confirm.perDay. */
  perDay: number;
  /** Today's config (credentials in clear), for the stored runs' masked values. */
  current?: Record<string, unknown>;
}

export type ConfirmOutcome = { record: ConfirmationRecord; changePoint: SuiteChangePoint } | { none: string };

export async function confirmFromStore(
  store: ResultStore,
  request: ConfirmRequest,
  options: ConfirmOptions,
  deps: ConfirmDeps,
): Promise<ConfirmOutcome> {
  if (!store.changePoints) return { none: `${store.describe()} cannot list change points` };
  // Unknown (a checkout without a branch): the branch of the newest published run, the daily one.
  const branch = request.branch || (await store.list({ suite: request.suite, limit: 1 }))[0]?.run.git.branch || '';
  const changes = await store.changePoints(request.suite, branch);
  if (changes.absent)
    throw new UsageError(
      `history store ${store.describe()}: ${changes.absent}, so there is nothing to confirm; pass the branch the daily runs publish to (--branch, history.branch)`,
    );
  const records = (await store.confirmations?.(request.suite)) ?? [];
  const target = pickChangePoint(changes, records, request.changePoint, request.minEffectPct);
  if ('none' in target)
    return {
      none: `${target.none} (suite ${request.suite}, branch ${branch || '(none)'}, ${changes.changePoints.length} change points)`,
    };
  const cp = target.changePoint;
  const now = deps.now();
  if (request.perDay === 0 || confirmationsToday(records, now) >= request.perDay) {
    const draft = newDraft(cp, request.suite, deps, now.toISOString());
    return { changePoint: cp, record: wordConfirmation({ ...draft, verdict: 'not-run', reason: 'budget' }) };
  }
  const runs = await store.list({ suite: request.suite, ids: [cp.before, cp.after] });
  const byId = new Map(runs.map((r) => [r.run.id, r]));
  const draft = await confirmChangePoint(
    {
      changePoint: cp,
      suite: request.suite,
      before: byId.get(cp.before),
      after: byId.get(cp.after),
      ...(request.current ? { current: request.current } : {}),
    },
    options,
    deps,
  );
  return { record: wordConfirmation(draft), changePoint: cp };
}
