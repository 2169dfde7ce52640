// Layout 1 of a store (mesh-perf before history layout 2), read once to convert it: one JSON file
// and one full HTML report per run, a suite index rewritten whole on every publish, and the
// dashboard's data beside it.
//
//   runs/<suite>/index.json                  the suite index (schemaVersion 1 or 2)
//   runs/<suite>/<year>/<stamp>-<id>.json    one run (results.json as published)
//   runs/<suite>/<year>/<stamp>-<id>.html    its report (after conversion: a redirect to run.html)
//   data/<suite>.js                          the index again, for the dashboard
//   assets/report.css, assets/report.js      still used by layout 2
// Pure.
import { suiteRoot } from './layout.ts';
import { parseJsonObject } from './marker.ts';

export const LEGACY_DATA_DIR = 'data';

export function legacyIndexPath(suite: string): string {
  return `${suiteRoot(suite)}/index.json`;
}

/** True for layout 1's run files (not its index) under runs/<suite>/. */
export function isLegacyRunFile(path: string, suite: string): boolean {
  const root = `${suiteRoot(suite)}/`;
  return path.startsWith(root) && /^\d{4}\/[^/]+\.json$/.test(path.slice(root.length));
}

export function legacyReportOf(runFile: string): string {
  return runFile.replace(/\.json$/, '.html');
}

export interface LegacyEntry {
  id: string;
  file: string;
  blob: string;
  startedAt: string;
}

export type LegacyIndexParse = { ok: true; runs: LegacyEntry[] } | { ok: false; reason: string };

/** Checks a layout-1 index as that version did; a damaged one stops the conversion naming it. */
export function parseLegacyIndex(text: string, expectedSuite: string): LegacyIndexParse {
  const parsed = parseJsonObject(text);
  if (!parsed.ok) return parsed;
  const doc = parsed.doc;
  const version = doc.schemaVersion;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    return { ok: false, reason: `has no valid schemaVersion (got ${JSON.stringify(version)}, expected 1..2)` };
  }
  if (version > 2) return { ok: false, reason: `has schemaVersion ${version}; layout 1 indexes have 1 or 2` };
  if (doc.kind !== 'mesh-perf-suite-index')
    return { ok: false, reason: `has kind ${JSON.stringify(doc.kind)}, expected "mesh-perf-suite-index"` };
  if (doc.suite !== expectedSuite)
    return { ok: false, reason: `belongs to suite ${JSON.stringify(doc.suite)}, expected "${expectedSuite}"` };
  if (!Array.isArray(doc.runs)) return { ok: false, reason: 'has no "runs" list' };
  for (const [i, run] of doc.runs.entries()) {
    const r = run as Partial<LegacyEntry> | null;
    if (!r || typeof r.id !== 'string' || typeof r.file !== 'string' || typeof r.blob !== 'string' || typeof r.startedAt !== 'string') {
      return { ok: false, reason: `has a malformed entry at runs[${i}] (expected id, file, blob, startedAt, modes)` };
    }
  }
  return { ok: true, runs: doc.runs as LegacyEntry[] };
}
