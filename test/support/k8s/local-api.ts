// A ClusterAccess to an HTTP server on 127.0.0.1 that plays the API server in a unit test: the
// kubeconfig is written, loaded and removed (the access keeps what it read).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAccess, type ClusterAccess } from '../../../src/platform/kubernetes/access.ts';

/** Listens on a free port of 127.0.0.1, then returns an access to it. */
export async function localApiAccess(server: Server): Promise<ClusterAccess> {
  if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const dir = mkdtempSync(join(tmpdir(), 'mesh-perf-local-api-'));
  try {
    const kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(
      kubeconfig,
      `apiVersion: v1\nkind: Config\nclusters: [{ name: c, cluster: { server: "http://127.0.0.1:${(server.address() as AddressInfo).port}", insecure-skip-tls-verify: true } }]\nusers: [{ name: u, user: {} }]\ncontexts: [{ name: x, context: { cluster: c, user: u } }]\ncurrent-context: x\n`,
    );
    return loadAccess({ kubeconfig });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
