// The steps that carry a results document from one schema version to the next, without the schema
// check (migrate.ts adds it): the browser's run page migrates stored runs with these alone, as the
// store checked every run against the schema when it stored it. Pure, no dependencies.
import { RESULTS_SCHEMA_VERSION } from './types.ts';

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
  // v7 records what a run ran beyond its config (run.provenance). An older file knew none of it
  // (its k6 version stays in run.tools); the settings fingerprints are left empty rather than
  // computed without the files' content, which would make them differ from those of a v7 run.
  6: (doc) => {
    const run = doc.run as Record<string, unknown> | undefined;
    if (!run || typeof run !== 'object' || run.provenance !== undefined) return doc;
    return { ...doc, run: { ...run, provenance: { settings: {}, migratedFrom: 6 } } };
  },
};

/** The document at the current schema version; throws when a version has no step (an unknown version). */
export function migrateDocument(raw: Record<string, unknown>): Record<string, unknown> {
  let doc = raw;
  const version = doc.schemaVersion as number;
  for (let v = version; v < RESULTS_SCHEMA_VERSION; v++) {
    const step = MIGRATIONS[v];
    if (!step) throw new Error(`schemaVersion ${v} has no migration to ${v + 1}`);
    doc = { ...step(doc), schemaVersion: v + 1 };
  }
  return doc;
}
