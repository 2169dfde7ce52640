// mesh-perf.json at the store root: says "this branch/folder is a mesh-perf history" (so we never
// write into somebody else's branch by accident), which layout it holds (its schemaVersion: 1 for
// the layout before index shards, legacy-layout.ts; 2 for layout.ts) and lists the suites for the
// dashboard, with the months their index shards cover. Pure.
export const MARKER_SCHEMA_VERSION = 2;
export const MARKER_KIND = 'mesh-perf-history';

export interface SuiteSummaryInfo {
  name: string;
  runs: number;
  first?: string;
  last?: string;
  profiles: string[];
  modes: string[];
  branches: string[];
  /** Months with an index shard ("2025-01"), oldest first (layout 2). */
  months?: string[];
}

export interface StoreMarker {
  schemaVersion: number;
  kind: typeof MARKER_KIND;
  /** Dashboard page when index.html belongs to somebody else (an adopted Pages site). */
  dashboard?: string;
  /** Run page when run.html belongs to somebody else (an adopted Pages site). */
  runPage?: string;
  suites: SuiteSummaryInfo[];
}

export function emptyMarker(): StoreMarker {
  return { schemaVersion: MARKER_SCHEMA_VERSION, kind: MARKER_KIND, suites: [] };
}

/** storedVersion: the layout the store holds (1: legacy-layout.ts, converted on the next write). */
export type MarkerParse = { ok: true; marker: StoreMarker; storedVersion: number } | { ok: false; reason: string };

/** A store file's text as a JSON object, or why it is not one (the first check of every file the store reads). */
export function parseJsonObject(text: string): { ok: true; doc: Record<string, unknown> } | { ok: false; reason: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `is not valid JSON (${(error as Error).message})` };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ok: false, reason: 'is not a JSON object' };
  return { ok: true, doc: raw as Record<string, unknown> };
}

export function parseMarker(text: string): MarkerParse {
  const parsed = parseJsonObject(text);
  if (!parsed.ok) return parsed;
  const doc = parsed.doc;
  if (doc.kind !== MARKER_KIND) return { ok: false, reason: `has kind ${JSON.stringify(doc.kind)}, expected "${MARKER_KIND}"` };
  const version = doc.schemaVersion;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    return { ok: false, reason: `has no valid schemaVersion (got ${JSON.stringify(version)})` };
  }
  if (version > MARKER_SCHEMA_VERSION) {
    return {
      ok: false,
      reason: `has schemaVersion ${version}, newer than this mesh-perf understands (${MARKER_SCHEMA_VERSION}); upgrade mesh-perf`,
    };
  }
  if (!Array.isArray(doc.suites)) return { ok: false, reason: 'has no "suites" list' };
  return { ok: true, marker: { ...(doc as unknown as StoreMarker), schemaVersion: MARKER_SCHEMA_VERSION }, storedVersion: version };
}

export function serializeMarker(marker: StoreMarker): string {
  const suites = [...marker.suites].sort((a, b) => (a.name < b.name ? -1 : 1));
  return `${JSON.stringify({ ...marker, suites }, null, 2)}\n`;
}
