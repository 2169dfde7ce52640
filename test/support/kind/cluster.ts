// Looking at a kind cluster from the harness, beside the product: kind's own list, the node
// containers Docker holds for a cluster (by kind's label), and kubectl (the node image's version)
// with the cluster's kubeconfig, inside the kind host's network (where its API server's port is
// mapped). The kubeconfig holds the cluster's admin credentials: written 0600 for the one call.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { kindComponentPath } from './components.ts';
import type { KindHost } from './host.ts';

const run = promisify(execFile);

export async function kindClusters(host: KindHost): Promise<string[]> {
  const { stdout, stderr } = await run(kindComponentPath('kind'), ['get', 'clusters'], { env: host.dockerEnv() });
  return `${stdout}\n${stderr}`
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('No kind clusters'));
}

/** The names of the cluster's node containers, running or not, sorted. */
export async function nodeContainers(host: KindHost, cluster: string): Promise<string[]> {
  const out = await host.docker(['ps', '-a', '--filter', `label=io.x-k8s.kind.cluster=${cluster}`, '--format', '{{.Names}}']);
  return out.split('\n').filter(Boolean).sort();
}

export async function clusterKubectl(host: KindHost, cluster: string, args: string[]): Promise<string> {
  const { stdout: kubeconfig } = await run(kindComponentPath('kind'), ['get', 'kubeconfig', '--name', cluster], { env: host.dockerEnv() });
  const dir = mkdtempSync(join(tmpdir(), 'mesh-perf-kind-kubeconfig-'));
  try {
    const file = join(dir, 'kubeconfig');
    writeFileSync(file, kubeconfig, { mode: 0o600 });
    const out = await host.exec(kindComponentPath('kubectl'), ['--kubeconfig', file, ...args], { namespaces: ['net'], timeoutMs: 60_000 });
    if (out.code !== 0) throw new Error(`kubectl ${args.join(' ')}: exit ${out.code}: ${out.stderr.trim()}`);
    return out.stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Deletes a cluster a failed test left (kind's own delete): the next test starts without it. */
export async function deleteLeftCluster(host: KindHost, cluster: string): Promise<void> {
  if ((await kindClusters(host).catch((): string[] => [])).includes(cluster))
    await run(kindComponentPath('kind'), ['delete', 'cluster', '--name', cluster], { env: host.dockerEnv(), timeout: 180_000 });
}
