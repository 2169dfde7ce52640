// The sentences about arms derived from a base config (config/arms-from-base.ts): which modes run
// as two arms and what differs, which are compared with history and why. `plan` and `run` print
// them; the PR comment and the job summary fold them under the A/B verdict. Pure.
import type { ArmsFromBase } from '../config/arms-from-base.ts';

export function armsFromBaseLines(summary: ArmsFromBase): string[] {
  if (summary.unavailable !== undefined)
    return [`A/B from ${summary.source}: not available (${summary.unavailable}); every mode is compared with history`];
  const lines = summary.armed.map((a) => {
    const what = a.values
      ? a.differs.map((d, i) => `${d} ${a.values![i]!.base} → ${a.values![i]!.head}`).join('; ')
      : `${a.differs.join(', ')} differ`;
    return `A/B from ${summary.source}: mode ${a.mode} runs as two arms, base and head (${what})`;
  });
  for (const h of summary.history) lines.push(`A/B from ${summary.source}: mode ${h.mode} is compared with history instead: ${h.reason}`);
  if (summary.armed.length === 0)
    lines.push(`A/B from ${summary.source}: no mode differs in what two arms can hold; every mode is compared with history`);
  return lines;
}

/**
 * The summary as a results file holds it (config.armsFromBase), read defensively: a file may be
 * old, hand-edited or hostile. Anything not of the written shape is left out, never guessed.
 */
export function storedArmsFromBase(config: Record<string, unknown>): ArmsFromBase | undefined {
  const raw = config.armsFromBase;
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { source, armed, history, unavailable } = raw as Record<string, unknown>;
  if (typeof source !== 'string') return undefined;
  const list = <T>(value: unknown, keep: (item: Record<string, unknown>) => T | undefined): T[] =>
    Array.isArray(value)
      ? value.flatMap((item) => {
          const kept = typeof item === 'object' && item !== null ? keep(item as Record<string, unknown>) : undefined;
          return kept === undefined ? [] : [kept];
        })
      : [];
  return {
    source,
    armed: list(armed, (a) =>
      typeof a.mode === 'string' && Array.isArray(a.differs)
        ? { mode: a.mode, differs: a.differs.filter((d): d is string => typeof d === 'string'), ...storedValues(a.values) }
        : undefined,
    ),
    history: list(history, (h) =>
      typeof h.mode === 'string' && typeof h.reason === 'string' ? { mode: h.mode, reason: h.reason } : undefined,
    ),
    ...(typeof unavailable === 'string' ? { unavailable } : {}),
  };
}

function storedValues(values: unknown): { values?: { base: string; head: string }[] } {
  if (!Array.isArray(values)) return {};
  const kept = values.filter(
    (v): v is { base: string; head: string } =>
      typeof v === 'object' && v !== null && typeof v.base === 'string' && typeof v.head === 'string',
  );
  return kept.length === values.length && values.length > 0 ? { values: kept.map((v) => ({ base: v.base, head: v.head })) } : {};
}
