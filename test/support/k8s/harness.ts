// Shared pieces of the Kubernetes integration tests: a config pointing at the local control
// plane with a random namespace prefix and suite, a logger that records, random names.
import { randomBytes } from 'node:crypto';
import { validateConfig, type Config } from '../../../src/config/validate.ts';
import type { Logger } from '../../../src/util/log.ts';
import assert from 'node:assert/strict';
import { rawRequest, type ClusterAccess } from '../../../src/platform/kubernetes/access.ts';
import { CLUSTER_SCOPED_PATHS } from '../../../src/platform/kubernetes/mesh/cleanup.ts';
import type { LocalCluster } from './cluster.ts';

export function randomName(prefix: string): string {
  return `${prefix}-${randomBytes(3).toString('hex')}`;
}

export interface RecordingLogger extends Logger {
  lines: string[];
}

export function recordingLogger(): RecordingLogger {
  const lines: string[] = [];
  return {
    lines,
    phase: (t) => lines.push(`## ${t}`),
    info: (m) => lines.push(m),
    warn: (m) => lines.push(`WARN ${m}`),
    progress: () => {},
    progressDone: () => {},
  };
}

export function clusterConfig(cluster: LocalCluster, raw: Record<string, unknown> = {}): Config {
  const { kubernetes, ...rest } = raw as { kubernetes?: Record<string, unknown> };
  return validateConfig({
    platform: 'kubeconfig',
    suite: randomName('t'),
    modes: [{ name: 'baseline' }],
    load: { rate: 20, duration: '2s', warmup: '1s', repetitions: 1 },
    ...rest,
    kubernetes: {
      kubeconfig: cluster.kubeconfigPath,
      namespacePrefix: randomName('mp'),
      readyTimeout: '60s',
      sampleInterval: '500ms',
      ...kubernetes,
    },
  });
}

/** The names of the objects a list path returns ([] for an API the server does not serve). */
export async function objectNames(access: ClusterAccess, path: string): Promise<string[]> {
  const response = await rawRequest(access, path);
  if (response.status === 404) return [];
  assert.equal(response.status, 200, `${path}: ${response.body.slice(0, 200)}`);
  return (JSON.parse(response.body) as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name).sort();
}

/** Every namespace and every cluster-scoped object a mesh install may create, by name: what "nothing left" is compared on. */
export async function clusterSnapshot(access: ClusterAccess): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = { namespaces: await objectNames(access, '/api/v1/namespaces') };
  for (const path of CLUSTER_SCOPED_PATHS) out[path] = await objectNames(access, path);
  return out;
}
