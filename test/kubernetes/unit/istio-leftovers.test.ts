// After `istioctl uninstall --purge` (mesh/cleanup.ts deleteIstioLeftovers): what it asked to
// delete and is still there is deleted again with background propagation and waited for. In the
// fault tier, after an API server restart, six of Istio's ClusterRoles outlived a run whose
// teardown said nothing: istioctl deletes with foreground propagation, and each object then waits
// for the garbage collector to clear its foregroundDeletion finalizer. A real HTTP server on
// 127.0.0.1 plays the API server here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { ClusterAccess } from '../../../src/platform/kubernetes/access.ts';
import { deleteIstioLeftovers } from '../../../src/platform/kubernetes/mesh/cleanup.ts';
import { EnvironmentError } from '../../../src/util/errors.ts';
import { localApiAccess } from '../../support/k8s/local-api.ts';

const CLUSTER_ROLES = '/apis/rbac.authorization.k8s.io/v1/clusterroles';

/**
 * An API server holding `left` ClusterRoles (terminating, as a foreground delete leaves them); a
 * background delete removes one unless `stuck` (another finalizer holds it).
 */
async function withApi(
  left: string[],
  stuck: boolean,
  fn: (access: ClusterAccess, deletes: string[]) => Promise<void>,
  options: { terminating?: boolean } = {},
) {
  const present = new Set(left);
  const deletes: string[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      response.setHeader('content-type', 'application/json');
      if (request.method === 'GET' && url.searchParams.has('labelSelector')) {
        assert.equal(url.searchParams.get('labelSelector'), 'operator.istio.io/component');
        const items =
          url.pathname === CLUSTER_ROLES
            ? [...present].map((name) => ({ metadata: { name, ...(options.terminating === false ? {} : { deletionTimestamp: 'now' }) } }))
            : [];
        response.end(JSON.stringify({ items }));
        return;
      }
      const name = url.pathname.startsWith(`${CLUSTER_ROLES}/`) ? url.pathname.slice(CLUSTER_ROLES.length + 1) : '';
      if (request.method === 'DELETE') {
        deletes.push(`${name} ${body}`);
        if (!stuck) present.delete(name);
        response.end('{}');
        return;
      }
      if (present.has(name)) response.end(JSON.stringify({ metadata: { name } }));
      else response.writeHead(404).end('{"kind":"Status","code":404}');
    });
  });
  try {
    await fn(await localApiAccess(server), deletes);
  } finally {
    server.close();
  }
}

test("ClusterRoles istioctl's foreground delete left terminating: deleted again in the background and waited for (finishing its delete: not named)", async () => {
  await withApi(['istio-cni', 'istiod-clusterrole-istio-system'], false, async (access, deletes) => {
    assert.deepEqual(await deleteIstioLeftovers(access, 5000), []);
    assert.equal(deletes.length, 2);
    for (const line of deletes) assert.match(line, /"propagationPolicy":"Background"/);
  });
});

test('a ClusterRole istioctl did not delete at all: deleted, waited for, and named', async () => {
  await withApi(
    ['istio-cni'],
    false,
    async (access, deletes) => {
      assert.deepEqual(await deleteIstioLeftovers(access, 5000), ['clusterroles/istio-cni']);
      assert.equal(deletes.length, 1);
    },
    { terminating: false },
  );
});

test('nothing left by istioctl: nothing deleted, nothing named', async () => {
  await withApi([], false, async (access, deletes) => {
    assert.deepEqual(await deleteIstioLeftovers(access, 5000), []);
    assert.deepEqual(deletes, []);
  });
});

test('one still there past the wait (another finalizer holds it): an error naming it, for the teardown to say the cleanup was incomplete', async () => {
  await withApi(['istio-cni'], true, async (access) => {
    await assert.rejects(deleteIstioLeftovers(access, 100), (error: Error) => {
      assert.ok(error instanceof EnvironmentError);
      assert.match(error.message, /^still being deleted after 0 s: clusterroles\/istio-cni/);
      return true;
    });
  });
});
