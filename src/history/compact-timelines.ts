// Per-second timelines are most of a run file (about 80% at 30 s per repetition) and matter for
// diagnosing recent runs, not for trends. Past the timeline retention ("30d" by default) a run
// is rewritten without them, in the same commit that publishes the new run, so three years of
// history stay small; the run's own artifacts (results.json, report.html) keep everything.
import { parseResultsJson } from '../results/migrate.ts';
import type { RunResult } from '../results/types.ts';
import { buildRunView } from '../report/view.ts';
import { messageOf } from '../util/errors.ts';
import { StoreCorruptError } from './errors.ts';
import { prunedEntries, type Retention } from './retention.ts';
import { indexEntryFor, type IndexEntry, type SuiteIndex } from './suite-index.ts';
import { gitBlobId, type StoreTree } from './tree.ts';

export interface CompactedRun {
  entry: IndexEntry;
  result: RunResult;
  text: string;
}

export function withoutTimelines(result: RunResult): RunResult {
  return { ...result, modes: result.modes.map((m) => ({ ...m, repetitions: m.repetitions.map((r) => ({ ...r, timeline: [] })) })) };
}

/**
 * Runs of `index` past the timeline retention that still carry timelines, rewritten without
 * them. `serialize` is the store's run serializer; `pending` holds runs written in this same
 * change (not yet readable from the tree).
 */
export async function compactTimelines(
  tree: StoreTree,
  index: SuiteIndex,
  retention: Retention,
  now: Date,
  storeLabel: string,
  serialize: (r: RunResult) => string,
  pending: Map<string, RunResult> = new Map(),
): Promise<CompactedRun[]> {
  const due = prunedEntries(index.runs, retention, now).filter((e) => e.tl !== false);
  if (due.length === 0) return [];
  const texts = await tree.readMany(due.filter((e) => !pending.has(e.file)).map((e) => e.file));
  const out: CompactedRun[] = [];
  for (const entry of due) {
    let result = pending.get(entry.file);
    if (!result) {
      const text = texts.get(entry.file);
      if (text === undefined) throw new StoreCorruptError(storeLabel, entry.file, 'is listed in the index but could not be read');
      try {
        result = parseResultsJson(text, entry.file);
      } catch (error) {
        throw new StoreCorruptError(storeLabel, entry.file, messageOf(error).replace(`${entry.file}: `, ''));
      }
    }
    const compacted = withoutTimelines(result);
    const text = serialize(compacted);
    out.push({
      entry: { ...indexEntryFor(buildRunView(compacted), entry.file, entry.report, gitBlobId(text)), tl: false },
      result: compacted,
      text,
    });
  }
  return out;
}
