// Ownership of what a run creates: every object carries app.kubernetes.io/managed-by=mesh-perf,
// the suite and the run id. A namespace without these labels (or one another run owns) is never
// reused, modified or deleted.
import { setTimeout as sleep } from 'node:timers/promises';
import { EnvironmentError } from '../../util/errors.ts';
import type { ClusterAccess } from './access.ts';
import { DELETED, getJson, listJson, sendJson } from './api-json.ts';

export const MANAGED_BY = 'app.kubernetes.io/managed-by';
export const MANAGER = 'mesh-perf';
export const RUN_ID = 'mesh-perf.dev/run-id';
export const SUITE = 'mesh-perf.dev/suite';
export const MODE = 'mesh-perf.dev/mode';
/** Set on objects that belong to a mesh installation we made (istio, linkerd, gateway-api). */
export const COMPONENT = 'mesh-perf.dev/component';
/** Set by `mesh-perf up` on what it leaves for inspection: a later run of the same suite may use it (it stays until `down`). */
export const KEPT = 'mesh-perf.dev/kept';
const KEPT_UNTIL_DOWN = 'until-down';

export function ownerLabels(suite: string, runId: string, keptUntilDown = false): Record<string, string> {
  return { [MANAGED_BY]: MANAGER, [SUITE]: suite, [RUN_ID]: runId, ...(keptUntilDown ? { [KEPT]: KEPT_UNTIL_DOWN } : {}) };
}

/**
 * The namespaces of a selection that hold workloads (the modes', the ingress gateway's), not a
 * mesh's own (istio-system, linkerd): removed first, so that no pod is still terminating when a
 * mesh's node agent removes its CNI plugin (see KubernetesPlatform.teardown).
 */
export function workloadNamespaces(selector: string): string {
  return `${selector},${COMPONENT} notin (istio,linkerd)`;
}

/** Label selector for everything mesh-perf made for a suite (any run). */
export function suiteSelector(suite: string): string {
  return `${MANAGED_BY}=${MANAGER},${SUITE}=${suite}`;
}

interface NamespaceView {
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string>; deletionTimestamp?: string };
}

export async function readNamespace(access: ClusterAccess, name: string): Promise<NamespaceView | undefined> {
  return getJson<NamespaceView>(
    access,
    `/api/v1/namespaces/${name}`,
    { verb: 'get', resource: `namespaces/${name}` },
    { timeoutMs: 15_000 },
  );
}

export type Ownership =
  | { state: 'absent' }
  | { state: 'ours' }
  | { state: 'other-run'; runId: string }
  /** Left by `mesh-perf up` for the same suite: a run uses it and leaves it to `down`. */
  | { state: 'kept'; runId: string }
  | { state: 'foreign' }
  | { state: 'terminating' };

export function ownershipOf(namespace: NamespaceView | undefined, runId: string, suite?: string): Ownership {
  if (!namespace) return { state: 'absent' };
  const labels = namespace.metadata.labels ?? {};
  if (labels[MANAGED_BY] !== MANAGER) return { state: 'foreign' };
  if (namespace.metadata.deletionTimestamp) return { state: 'terminating' };
  if (labels[RUN_ID] !== runId && labels[KEPT] === KEPT_UNTIL_DOWN && suite !== undefined && labels[SUITE] === suite)
    return { state: 'kept', runId: labels[RUN_ID] ?? 'unknown' };
  if (labels[RUN_ID] !== runId) return { state: 'other-run', runId: labels[RUN_ID] ?? 'unknown' };
  return { state: 'ours' };
}

export interface NamespaceRequest {
  name: string;
  suite: string;
  runId: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  /** This run leaves what it makes until `mesh-perf down` (mesh-perf up). */
  keptUntilDown?: boolean;
}

/**
 * Creates the namespace with our labels, or accepts it when this run already owns it, or uses
 * one `mesh-perf up` left for the same suite (its mode's labels brought up to date, its owner
 * kept: the run's teardown leaves it to `down`). Refuses a namespace mesh-perf does not manage,
 * and one another run left (remove it with `down`): two runs must never share a namespace.
 */
export async function claimNamespace(
  access: ClusterAccess,
  request: NamespaceRequest,
  signal?: AbortSignal,
): Promise<'created' | 'existing' | { kept: string }> {
  for (let attempt = 0; attempt < 120; attempt++) {
    const ownership = ownershipOf(await readNamespace(access, request.name), request.runId, request.suite);
    switch (ownership.state) {
      case 'foreign':
        throw new EnvironmentError(
          `namespace ${request.name} already exists and is not managed by mesh-perf (it lacks the label ${MANAGED_BY}=${MANAGER}); refusing to use or change it. Pick another kubernetes.namespacePrefix, or remove the namespace yourself if it is a leftover.`,
        );
      case 'other-run':
        throw new EnvironmentError(
          `namespace ${request.name} belongs to another mesh-perf run (${RUN_ID}=${ownership.runId}), e.g. an interrupted run's, or one \`mesh-perf up\` left for another suite; refusing to reuse it. Remove it with \`mesh-perf down --config FILE\`, or pick another kubernetes.namespacePrefix.`,
        );
      case 'terminating':
        // Our own namespace from an earlier run is still being deleted: wait for it to go.
        if (signal?.aborted) throw new EnvironmentError(`cancelled while namespace ${request.name} was terminating`);
        await sleep(1000);
        continue;
      case 'ours':
        await patchNamespace(access, request);
        return 'existing';
      case 'kept':
        await patchNamespace(access, request, false);
        return { kept: ownership.runId };
      case 'absent': {
        const body = {
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: {
            name: request.name,
            labels: { ...request.labels, ...ownerLabels(request.suite, request.runId, request.keptUntilDown) },
            annotations: request.annotations ?? {},
          },
        };
        const response = await sendJson(
          access,
          '/api/v1/namespaces',
          { verb: 'create', resource: 'namespaces' },
          { method: 'POST', body: JSON.stringify(body), contentType: 'application/json', timeoutMs: 15_000, ok: [201, 409] },
        );
        if (response.status === 409) continue; // created concurrently: re-check who owns it
        return 'created';
      }
    }
  }
  throw new EnvironmentError(
    `namespace ${request.name} stayed in Terminating for 2 minutes; check for stuck finalizers (kubectl get namespace ${request.name} -o yaml)`,
  );
}

/** The request's labels and annotations on the namespace, with this run as its owner unless `owned` is false. */
async function patchNamespace(access: ClusterAccess, request: NamespaceRequest, owned = true): Promise<void> {
  const owner = owned ? ownerLabels(request.suite, request.runId, request.keptUntilDown) : {};
  const patch = { metadata: { labels: { ...request.labels, ...owner }, annotations: request.annotations ?? {} } };
  await sendJson(
    access,
    `/api/v1/namespaces/${request.name}`,
    { verb: 'patch', resource: `namespaces/${request.name}` },
    { method: 'PATCH', body: JSON.stringify(patch), contentType: 'application/merge-patch+json', timeoutMs: 15_000, ok: [200] },
  );
}

/** Deletes namespaces matching the selector (only ours: the selector always includes managed-by) and waits until they are gone. */
export async function deleteNamespaces(
  access: ClusterAccess,
  selector: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<string[]> {
  if (!selector.includes(`${MANAGED_BY}=${MANAGER}`))
    throw new Error(`refusing to delete namespaces by a selector without ${MANAGED_BY}=${MANAGER}: ${selector}`);
  const listed = await listJson<NamespaceView>(
    access,
    `/api/v1/namespaces?labelSelector=${encodeURIComponent(selector)}`,
    { verb: 'list', resource: 'namespaces' },
    { timeoutMs: 15_000 },
  );
  const names = (listed ?? []).map((n) => n.metadata.name);
  for (const name of names)
    await sendJson(
      access,
      `/api/v1/namespaces/${name}`,
      { verb: 'delete', resource: `namespaces/${name}` },
      { method: 'DELETE', timeoutMs: 15_000, ok: DELETED },
    );
  const deadline = Date.now() + timeoutMs;
  for (const name of names) {
    while ((await readNamespace(access, name)) !== undefined) {
      if (Date.now() > deadline || signal?.aborted) {
        throw new EnvironmentError(
          `namespace ${name} is still terminating after ${Math.round(timeoutMs / 1000)}s; check its finalizers (kubectl get namespace ${name} -o yaml)`,
        );
      }
      await sleep(500);
    }
  }
  return names;
}
