// mesh-perf.json at the store root: says "this branch/folder is a mesh-perf history" (so we never
// write into somebody else's branch by accident) and lists the suites for the dashboard. Pure.
export const MARKER_SCHEMA_VERSION = 1;
export const MARKER_KIND = 'mesh-perf-history';

export interface SuiteSummaryInfo {
  name: string;
  runs: number;
  first?: string;
  last?: string;
  profiles: string[];
  modes: string[];
  branches: string[];
}

export interface StoreMarker {
  schemaVersion: number;
  kind: typeof MARKER_KIND;
  /** Dashboard page when index.html belongs to somebody else (an adopted Pages site). */
  dashboard?: string;
  suites: SuiteSummaryInfo[];
}

export function emptyMarker(): StoreMarker {
  return { schemaVersion: MARKER_SCHEMA_VERSION, kind: MARKER_KIND, suites: [] };
}

export type MarkerParse = { ok: true; marker: StoreMarker } | { ok: false; reason: string };

export function parseMarker(text: string): MarkerParse {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `is not valid JSON (${(error as Error).message})` };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ok: false, reason: 'is not a JSON object' };
  const doc = raw as Record<string, unknown>;
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
  return { ok: true, marker: { ...(doc as unknown as StoreMarker), schemaVersion: MARKER_SCHEMA_VERSION } };
}

export function serializeMarker(marker: StoreMarker): string {
  const suites = [...marker.suites].sort((a, b) => (a.name < b.name ? -1 : 1));
  return `${JSON.stringify({ ...marker, suites }, null, 2)}\n`;
}
