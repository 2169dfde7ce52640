// Every field that differed between a change point's two runs (results/facts.ts), beyond what the
// index says (commits, mesh and Kubernetes versions, runner class): the k6 binary, the runner's
// image, kind's node image, the control planes' images, the files the runs read, each setting of
// the config. The index does not hold them (it would grow by kilobytes a run), so they come from the
// two run files: at a publish only for change points the suite's previous change-points file did
// not list with the same two runs (most days none), read in one batch; the rest are taken from it.
import { diffFacts, type FactChange, provenanceMissing, runFacts } from '../results/facts.ts';
import { type ChangedFields, pairKey, type SuiteChangePoints } from './change-points.ts';
import { changePointsPath } from './layout.ts';
import { parseJsonScript } from './store-scripts.ts';
import type { IndexEntry } from './suite-index.ts';
import { readStoredRun } from './suite-state.ts';
import type { StoreTree } from './tree.ts';

/** At most this many fields per change point (the rest counted): a dozen settings and images change at most on a day worth reading. */
export const MAX_FIELDS = 40;
/** A value is cut to this many characters (image references with digests are about 100). */
const MAX_VALUE = 160;

/** Facts the index already gives a change point (WhatChanged's own fields) or that say nothing of the setup. */
const SHOWN_ELSEWHERE = (key: string) =>
  key === 'commit' || key === 'kubernetes.version' || key.startsWith('mesh.') || key === 'runner.class';

/** The changed fields of two runs read in full (what a change point and a confirmation show). */
export function changedFieldsOf(
  before: Parameters<typeof runFacts>[0],
  after: Parameters<typeof runFacts>[0],
): ChangedFields & { fields: FactChange[] } {
  const { changes, unknown } = diffFacts(runFacts(before), runFacts(after), {
    before: provenanceMissing(before),
    after: provenanceMissing(after),
  });
  const shown = changes.filter((c) => !SHOWN_ELSEWHERE(c.key));
  const cut = (v: string) => (v.length > MAX_VALUE ? `${v.slice(0, MAX_VALUE - 1)}…` : v);
  const fields = shown.slice(0, MAX_FIELDS).map((c) => ({ key: c.key, before: cut(c.before), after: cut(c.after) }));
  return { fields, ...(shown.length > fields.length ? { more: shown.length - fields.length } : {}), ...(unknown > 0 ? { unknown } : {}) };
}

/**
 * Sets `changed.fields` (and `more`, `unknown`) on every change point: from the previous
 * change-points file of the suite where it listed the same two runs, else from the runs' files.
 * A run whose file is gone (retention) leaves its change point without fields.
 */
export async function attachChangedFields(
  tree: StoreTree,
  suite: string,
  changes: SuiteChangePoints,
  entries: readonly IndexEntry[],
  /** Run files the store holds now (retention may have removed a change point's run). */
  stored: ReadonlyMap<string, string>,
  storeLabel: string,
  /** Files this write adds (a new run is not in the tree yet): path → content. */
  pending: ReadonlyMap<string, string> = new Map(),
): Promise<void> {
  if (changes.changePoints.length === 0) return;
  const known = await previousFields(tree, suite);
  const files = new Map(entries.map((e) => [e.id, e.file]));
  const wanted = new Map<string, [string, string]>();
  for (const cp of changes.changePoints) {
    const key = pairKey(cp.before, cp.after);
    if (!known.has(key) && files.has(cp.before) && files.has(cp.after)) wanted.set(key, [files.get(cp.before)!, files.get(cp.after)!]);
  }
  if (wanted.size > 0) {
    const paths = [...new Set([...wanted.values()].flat())].filter((p) => stored.has(p));
    const texts = await tree.readMany(paths.filter((p) => !pending.has(p)));
    const runs = new Map<string, Parameters<typeof runFacts>[0]>();
    for (const path of paths) {
      const text = pending.get(path) ?? texts.get(path);
      // The index check names a damaged run file; here one only leaves its change points without fields.
      try {
        if (text !== undefined) runs.set(path, readStoredRun(text, path, storeLabel));
      } catch {}
    }
    for (const [key, [a, b]] of wanted) {
      const before = runs.get(a);
      const after = runs.get(b);
      if (before && after) known.set(key, changedFieldsOf(before, after));
    }
  }
  for (const cp of changes.changePoints) {
    const fields = known.get(pairKey(cp.before, cp.after));
    if (fields) Object.assign(cp.changed, fields);
  }
}

/** The fields the suite's change-points file lists per pair of runs (its `fields` map); none when it is missing or unreadable. */
async function previousFields(tree: StoreTree, suite: string): Promise<Map<string, ChangedFields>> {
  const text = await tree.read(changePointsPath(suite));
  const out = new Map<string, ChangedFields>();
  if (text === undefined) return out;
  const parsed = parseJsonScript(text, 'changePoints');
  if (!parsed.ok) return out;
  const pairs = (parsed.value as { fields?: unknown }).fields;
  if (typeof pairs !== 'object' || pairs === null) return out;
  for (const [key, value] of Object.entries(pairs as Record<string, unknown>)) {
    const v = value as ChangedFields;
    if (
      Array.isArray(v?.fields) &&
      v.fields.every((f) => typeof f?.key === 'string' && typeof f.before === 'string' && typeof f.after === 'string')
    )
      out.set(key, v);
  }
  return out;
}
