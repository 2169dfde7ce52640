// Server-side apply of manifests (multi-document YAML or objects) with one field manager, so a
// re-apply converges instead of conflicting. Namespaced objects get the target namespace; every
// object gets our ownership labels, which is how `down` finds what a run created. Each object is
// sent as written: the typed client's serializer rebuilt known kinds from its models and dropped
// what they spell differently (every x-kubernetes-* key of a CRD's schema: Linkerd's CRDs were
// rejected, the Gateway API's lost most of their validation rules).
import type { KubernetesObject } from '@kubernetes/client-node';
import { parseAllDocuments } from 'yaml';
import { setTimeout as sleep } from 'node:timers/promises';
import { EnvironmentError, UsageError } from '../../util/errors.ts';
import { rawRequest, type ClusterAccess } from './access.ts';
import { expectStatus } from './api-json.ts';
import { withRetry } from './retry.ts';

export const FIELD_MANAGER = 'mesh-perf';

export function parseManifests(text: string, source: string): KubernetesObject[] {
  const objects: KubernetesObject[] = [];
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length > 0) throw new UsageError(`${source} is not valid YAML: ${doc.errors[0]!.message.split('\n')[0]}`);
    const value = doc.toJS() as unknown;
    if (value === null || value === undefined) continue;
    const items = (value as { kind?: string }).kind?.endsWith('List') ? ((value as { items?: unknown[] }).items ?? []) : [value];
    for (const item of items) {
      const object = item as KubernetesObject;
      if (!object.apiVersion || !object.kind || !object.metadata?.name) {
        throw new UsageError(
          `${source}: every document needs apiVersion, kind and metadata.name (got ${JSON.stringify({ apiVersion: object.apiVersion, kind: object.kind, name: object.metadata?.name })})`,
        );
      }
      objects.push(object);
    }
  }
  return objects;
}

/** Which kinds are namespaced, from the API server's discovery documents (cached per access). */
export class Discovery {
  private readonly cache = new Map<string, Map<string, { plural: string; namespaced: boolean }>>();

  constructor(private readonly access: ClusterAccess) {}

  async resource(apiVersion: string, kind: string): Promise<{ plural: string; namespaced: boolean }> {
    for (let refresh = 0; refresh < 2; refresh++) {
      if (refresh > 0 || !this.cache.has(apiVersion)) await this.load(apiVersion);
      const found = this.cache.get(apiVersion)?.get(kind);
      if (found) return found;
    }
    throw new UsageError(`the cluster does not serve ${kind} in ${apiVersion}; is its CustomResourceDefinition installed?`);
  }

  private async load(apiVersion: string): Promise<void> {
    const path = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
    const response = await withRetry(async () => {
      const r = await rawRequest(this.access, path, { timeoutMs: 15_000 });
      if (r.status >= 500 || r.status === 429) throw Object.assign(new Error(`HTTP ${r.status}`), { code: r.status });
      return r;
    });
    const kinds = new Map<string, { plural: string; namespaced: boolean }>();
    if (response.status === 200) {
      const list = JSON.parse(response.body) as { resources?: { name: string; kind: string; namespaced: boolean }[] };
      for (const r of list.resources ?? []) if (!r.name.includes('/')) kinds.set(r.kind, { plural: r.name, namespaced: r.namespaced });
    }
    this.cache.set(apiVersion, kinds);
  }
}

export interface ApplyOptions {
  /** Namespace for namespaced objects that do not name one. */
  namespace?: string;
  /** Labels merged into every object (ownership). */
  labels?: Record<string, string>;
  signal?: AbortSignal;
}

export class Applier {
  readonly discovery: Discovery;

  constructor(readonly access: ClusterAccess) {
    this.discovery = new Discovery(access);
  }

  /** Applies in order; CRDs first wait for Established so later documents can use them. */
  async apply(objects: KubernetesObject[], options: ApplyOptions = {}): Promise<KubernetesObject[]> {
    const applied: KubernetesObject[] = [];
    const ordered = [...objects].sort((a, b) => rank(a) - rank(b));
    for (const object of ordered) {
      applied.push(await this.applyOne(object, options));
      if (object.kind === 'CustomResourceDefinition') await this.waitEstablished(object.metadata!.name!, options.signal);
    }
    return applied;
  }

  async applyOne(object: KubernetesObject, options: ApplyOptions = {}): Promise<KubernetesObject> {
    const { namespaced, plural } = await this.discovery.resource(object.apiVersion!, object.kind!);
    const metadata = { ...object.metadata, labels: { ...object.metadata?.labels, ...options.labels } };
    if (namespaced) metadata.namespace = metadata.namespace ?? options.namespace;
    else delete metadata.namespace;
    if (namespaced && !metadata.namespace) throw new UsageError(`${object.kind} ${metadata.name} needs a namespace`);
    const spec = { ...object, metadata } as KubernetesObject;
    const [group, version] = object.apiVersion!.includes('/') ? object.apiVersion!.split('/') : [undefined, object.apiVersion!];
    const base = group ? `/apis/${group}/${version}` : `/api/${version}`;
    const path = `${base}${namespaced ? `/namespaces/${encodeURIComponent(metadata.namespace!)}` : ''}/${plural}/${encodeURIComponent(metadata.name!)}`;
    const action = { verb: 'patch', resource: `${plural}${group ? `.${group}` : ''}/${metadata.name}`, namespace: metadata.namespace };
    // JSON is YAML: the apply-patch body is the object exactly as written, with our labels.
    // rawRequest retries throttling and server errors (429, 5xx) itself.
    const response = await rawRequest(this.access, `${path}?fieldManager=${FIELD_MANAGER}&force=true`, {
      method: 'PATCH',
      contentType: 'application/apply-patch+yaml',
      body: JSON.stringify(spec),
      timeoutMs: 60_000,
    });
    expectStatus(response, [200, 201], action);
    return JSON.parse(response.body) as KubernetesObject;
  }

  private async waitEstablished(name: string, signal?: AbortSignal): Promise<void> {
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && !signal?.aborted) {
      const response = await rawRequest(this.access, `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`, {
        timeoutMs: 10_000,
      });
      if (response.status === 200) {
        const crd = JSON.parse(response.body) as { status?: { conditions?: { type: string; status: string }[] } };
        if (crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) return;
      }
      await sleep(200);
    }
    throw new EnvironmentError(`CustomResourceDefinition ${name} was applied but not Established within 60s`);
  }
}

/** Namespaces and CRDs before the objects that live in or use them. */
function rank(object: KubernetesObject): number {
  if (object.kind === 'Namespace') return 0;
  if (object.kind === 'CustomResourceDefinition') return 1;
  if (object.kind === 'ServiceAccount' || object.kind?.endsWith('Role') || object.kind?.endsWith('RoleBinding')) return 2;
  return 3;
}
