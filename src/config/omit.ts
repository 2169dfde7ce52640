// Every problem of a config in one pass (issue 54: three `plan` runs for three problems): the
// values the schema refused are left out, and the checks that read the other fields (cross-field
// checks, the files and machine checks before the load) run on what remains, where that is
// meaningful. A problem those later checks find at or under a value left out is the omission's
// echo ("load.rate is required" after a bad rate was dropped), not news, and is not repeated. Pure.
import type { z } from 'zod';

export type IssuePath = readonly PropertyKey[];

/** The paths whose values an issue refused: its own, or each unknown key's; a union's by the branch the user wrote. */
export function refusedPaths(issue: z.core.$ZodIssue, prefix: IssuePath = []): IssuePath[] {
  const path = [...prefix, ...issue.path];
  if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => [...path, key]);
  if (issue.code === 'invalid_union' && !issue.message.startsWith('expected')) {
    const branch = issue.errors.find((errors) => !errors.some((e) => e.code === 'invalid_type' && e.path.length === 0));
    if (branch && branch.length > 0) return branch.flatMap((inner) => refusedPaths(inner, path));
  }
  return [path];
}

/**
 * Values the other checks cannot do without: the platform and preset decide which fields apply,
 * a mode's name and mesh are what the baseline, gates and arms refer to. With one of those refused,
 * the later checks would judge a config the user did not write, so they wait for the fix.
 */
export function isStructural(path: IssuePath): boolean {
  const [first, index, field] = path;
  if (path.length === 0 || first === 'platform' || first === 'preset') return true;
  if (first !== 'modes') return false;
  return path.length <= 2 || (typeof index === 'number' && (field === 'name' || field === 'mesh' || field === 'arms'));
}

/** A deep copy of `raw` without the values at `paths` (a missing path is left alone). */
export function withoutPaths(raw: unknown, paths: readonly IssuePath[]): unknown {
  const copy = structuredClone(raw) as Record<PropertyKey, unknown>;
  // Deepest first, and list items from the end, so removing one leaves the others' paths as they were.
  const ordered = [...paths].sort((a, b) => b.length - a.length || compareKeys(b.at(-1), a.at(-1)));
  for (const path of ordered) {
    let node: unknown = copy;
    for (const key of path.slice(0, -1))
      node = node !== null && typeof node === 'object' ? (node as Record<PropertyKey, unknown>)[key] : undefined;
    if (node === null || typeof node !== 'object') continue;
    const last = path.at(-1)!;
    // A list item goes; the items after it move up (later checks rarely name list items by index).
    if (Array.isArray(node) && typeof last === 'number') node.splice(last, 1);
    else delete (node as Record<PropertyKey, unknown>)[last];
  }
  return copy;
}

function compareKeys(a: PropertyKey | undefined, b: PropertyKey | undefined): number {
  return typeof a === 'number' && typeof b === 'number' ? a - b : 0;
}

/** Whether a problem's printed path is at or under one of the printed paths left out. */
export function underOmitted(path: string, omitted: readonly string[]): boolean {
  return omitted.some((o) => o === '' || path === o || path.startsWith(`${o}.`) || path.startsWith(`${o}[`));
}
