// A suite's confirmations (runs/<suite>/confirmations.<suite>.js): every verdict `mesh-perf
// confirm` reached for one of its change points, newest last, the latest per change point kept.
// The change-points file carries each change point's latest verdict, so the dashboard and the run
// page show it beside the step; the file itself keeps them across publishes (a change point that
// disappears and comes back finds its verdict again). Pure.
import { type ConfirmationRecord, confirmationKey, readConfirmation } from '../confirm/record.ts';
import { jsonScript, parseJsonScript } from './store-scripts.ts';

export const CONFIRMATIONS_KIND = 'mesh-perf-confirmations';
export const CONFIRMATIONS_SCHEMA_VERSION = 1;
/** The newest this many are kept per suite (a few a day at most for years). */
export const MAX_CONFIRMATIONS = 2000;

export function serializeConfirmations(suite: string, records: readonly ConfirmationRecord[]): string {
  const head = JSON.stringify({ schemaVersion: CONFIRMATIONS_SCHEMA_VERSION, kind: CONFIRMATIONS_KIND, suite });
  const lines = records.map((r) => JSON.stringify(r));
  return jsonScript('confirmations', `${head.slice(0, -1)},"confirmations":[${lines.length ? `\n${lines.join(',\n')}\n` : ''}]}`);
}

export type ConfirmationsParse = { ok: true; records: ConfirmationRecord[] } | { ok: false; reason: string };

export function parseConfirmations(text: string, suite: string): ConfirmationsParse {
  const parsed = parseJsonScript(text, 'confirmations');
  if (!parsed.ok) return parsed;
  const doc = parsed.value as { schemaVersion?: unknown; kind?: unknown; suite?: unknown; confirmations?: unknown };
  if (typeof doc !== 'object' || doc === null) return { ok: false, reason: 'is not a JSON object' };
  if (doc.kind !== CONFIRMATIONS_KIND)
    return { ok: false, reason: `has kind ${JSON.stringify(doc.kind)}, expected "${CONFIRMATIONS_KIND}"` };
  if (typeof doc.schemaVersion !== 'number' || doc.schemaVersion > CONFIRMATIONS_SCHEMA_VERSION)
    return {
      ok: false,
      reason: `has schemaVersion ${JSON.stringify(doc.schemaVersion)}, newer than this mesh-perf understands; upgrade it`,
    };
  if (doc.suite !== suite) return { ok: false, reason: `belongs to suite ${JSON.stringify(doc.suite)}, expected "${suite}"` };
  if (!Array.isArray(doc.confirmations)) return { ok: false, reason: 'has no "confirmations" list' };
  const records: ConfirmationRecord[] = [];
  for (const [i, raw] of doc.confirmations.entries()) {
    const read = readConfirmation(raw);
    if (!read.ok) return { ok: false, reason: `confirmations[${i}] ${read.reason}` };
    records.push(read.record);
  }
  return { ok: true, records };
}

/** `records` with `added` merged in: one per change point (the newest by finishedAt), in the order they finished, at most MAX_CONFIRMATIONS. */
export function mergeConfirmations(records: readonly ConfirmationRecord[], added: readonly ConfirmationRecord[]): ConfirmationRecord[] {
  const byKey = new Map<string, ConfirmationRecord>();
  for (const r of [...records, ...added]) {
    const key = confirmationKey(r);
    const seen = byKey.get(key);
    if (!seen || seen.finishedAt <= r.finishedAt) byKey.set(key, r);
  }
  return [...byKey.values()]
    .sort((a, b) => (a.finishedAt < b.finishedAt ? -1 : a.finishedAt > b.finishedAt ? 1 : 0))
    .slice(-MAX_CONFIRMATIONS);
}

/** What a change point carries of its latest confirmation (the change-points file, the dashboard, the run page). */
export type ConfirmationSummary = Pick<ConfirmationRecord, 'verdict' | 'line' | 'details' | 'finishedAt' | 'metric' | 'culprits'>;

/** The latest verdict per change point key (confirmationKey). */
export function confirmationsByKey(records: readonly ConfirmationRecord[]): Map<string, ConfirmationSummary> {
  const out = new Map<string, ConfirmationSummary>();
  for (const r of mergeConfirmations(records, []))
    out.set(confirmationKey(r), {
      verdict: r.verdict,
      line: r.line,
      details: r.details,
      finishedAt: r.finishedAt,
      metric: r.metric,
      ...(r.culprits ? { culprits: r.culprits } : {}),
    });
  return out;
}
