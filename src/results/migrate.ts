// Reads a results.json of any known schema version and returns the current shape. Each step
// migrates one version to the next, so old history stays readable forever.
import { RESULTS_SCHEMA_VERSION, type RunResult } from './types.ts';
import { resultsSchema } from './schema.ts';
import { UsageError } from '../util/errors.ts';
import { redactInPlace } from '../util/redact.ts';

type Migration = (old: Record<string, unknown>) => Record<string, unknown>;

/** MIGRATIONS[v] turns a version-v document into version v+1. */
const MIGRATIONS: Record<number, Migration> = {
  // v2 gives "analysis" a shape (src/results/analysis.ts). Version 1 never defined one, so an old
  // block is dropped; it is recomputed from the repetitions, which every version keeps.
  1: ({ analysis: _dropped, ...rest }) => rest,
  // v3 adds the verdict and gate decision "inconclusive"; every v2 document is a valid v3 one.
  2: (doc) => doc,
  // v4 measures until decided: the analysis's modesToConfirm (a one-off confirmation round) became
  // modesToExtend (modes that need more blocks at the next look); A/B gates and the stopping record
  // are new and optional.
  3: (doc) => {
    const analysis = doc.analysis as Record<string, unknown> | undefined;
    if (!analysis || typeof analysis !== 'object') return doc;
    const { modesToConfirm, ...rest } = analysis;
    return { ...doc, analysis: { ...rest, modesToExtend: rest.modesToExtend ?? modesToConfirm ?? [] } };
  },
  // v5 names a PR's base commit for what it is: run.git.mergeBase was GitHub's
  // pull_request.base.sha (the base branch's tip when the event fired), never `git merge-base`.
  4: (doc) => {
    const run = doc.run as Record<string, unknown> | undefined;
    const git = run && typeof run === 'object' ? (run.git as Record<string, unknown> | undefined) : undefined;
    if (!git || typeof git !== 'object' || !('mergeBase' in git)) return doc;
    const { mergeBase, ...rest } = git;
    return { ...doc, run: { ...run, git: { ...rest, ...(rest.baseSha === undefined ? { baseSha: mergeBase } : {}) } } };
  },
  // v6 records per mode the mutual TLS policy in force (modes[].mtls), the namespace's enrolment
  // and per repetition what the proxies counted (path). An older cluster run says what is certain
  // from its environment: a mode without a mesh had none, and an Istio mode ran under the
  // mesh-wide STRICT PeerAuthentication mesh-perf applied when it installed Istio itself.
  5: (doc) => {
    const run = doc.run as { platform?: unknown; environment?: Record<string, unknown> } | undefined;
    if (!Array.isArray(doc.modes) || (run?.platform !== 'kind' && run?.platform !== 'kubeconfig')) return doc;
    const istio = (run.environment?.meshes as Record<string, Record<string, unknown>> | undefined)?.istio;
    const strictByUs = istio?.installedByMeshPerf === true && istio.mtls === 'STRICT';
    const modes = doc.modes.map((mode: Record<string, unknown>) => {
      if (!mode || typeof mode !== 'object' || mode.mtls !== undefined) return mode;
      const mesh = typeof mode.mesh === 'string' ? mode.mesh : mode.name;
      if (mesh === 'baseline') return { ...mode, mtls: { mode: 'none', source: 'no mesh' } };
      if (strictByUs && typeof mesh === 'string' && mesh.startsWith('istio-'))
        return { ...mode, mtls: { mode: 'STRICT', source: 'PeerAuthentication istio-system/default (mesh-wide)' } };
      return mode;
    });
    return { ...doc, modes };
  },
};

export class ResultsFormatError extends UsageError {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(`${path}: ${reason}`);
    this.name = 'ResultsFormatError';
  }
}

export function migrateResults(raw: unknown, path: string): RunResult {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ResultsFormatError(path, 'is not a mesh-perf results file (expected a JSON object)');
  }
  let doc = raw as Record<string, unknown>;
  const version = doc.schemaVersion;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    throw new ResultsFormatError(
      path,
      `has no valid schemaVersion (got ${JSON.stringify(version)}, expected an integer 1..${RESULTS_SCHEMA_VERSION})`,
    );
  }
  if (version > RESULTS_SCHEMA_VERSION) {
    throw new ResultsFormatError(
      path,
      `has schemaVersion ${version}, newer than this mesh-perf understands (${RESULTS_SCHEMA_VERSION}); upgrade mesh-perf to read it`,
    );
  }
  for (let v = version; v < RESULTS_SCHEMA_VERSION; v++) {
    const step = MIGRATIONS[v];
    if (!step) throw new ResultsFormatError(path, `schemaVersion ${v} has no migration to ${v + 1}`);
    doc = { ...step(doc), schemaVersion: v + 1 };
  }
  if (!Array.isArray(doc.modes) || typeof doc.run !== 'object') {
    throw new ResultsFormatError(path, 'is missing "modes" or "run"; it does not look like a mesh-perf results file');
  }
  // Past the migrations the document must be exactly the current contract: every reader downstream
  // (compare, history, the fork-safe commenter, report) then trusts its types.
  const checked = resultsSchema.safeParse(doc);
  if (!checked.success) {
    const [first, ...more] = checked.error.issues;
    const field = first!.path.length > 0 ? first!.path.join('.') : '(the document)';
    const others = more.length > 0 ? ` (and ${more.length} more problem${more.length === 1 ? '' : 's'})` : '';
    throw new ResultsFormatError(
      path,
      `field ${field}: ${first!.message}${others}; not a valid mesh-perf results file (schema/results.schema.json)`,
    );
  }
  // A file written elsewhere, or before redaction existed, must not carry a credential further
  // (into a report, the store, a comment): read back redacted, as the pipeline writes.
  return redactInPlace(doc) as unknown as RunResult;
}

export function parseResultsJson(text: string, path: string): RunResult {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ResultsFormatError(path, `is not valid JSON (${(error as Error).message})`);
  }
  return migrateResults(raw, path);
}
