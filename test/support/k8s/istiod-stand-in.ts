// istiod's gateway controller, for a local control plane whose istiod pods are emulated (kwok) and
// so never act on a Gateway. It does what a run waits for: creates the Deployment (and, with
// `service`, the Service) `<gateway>-istio` with the replicas of the options ConfigMap, owned by
// the Gateway as istiod makes them, and sets the Gateway's Accepted and Programmed conditions.
import assert from 'node:assert/strict';
import { rawRequest, type ClusterAccess } from '../../../src/platform/kubernetes/access.ts';
import { GATEWAY_NAME, GATEWAY_OPTIONS, GATEWAY_TLS_SECRET } from '../../../src/platform/kubernetes/ingress.ts';

type Json = any;

export interface StandIn {
  stop: () => void;
  /** The Gateway, its TLS Secret and options ConfigMap as the stand-in found them. */
  seen: Promise<{ gateway: Json; secret: Json; options: Json }>;
}

/** `gateway`: which Gateway to act on (an Istio revision's is `mesh-perf-gateway-<revision>`). */
export function istiodStandIn(access: ClusterAccess, namespace: string, options: { service?: boolean; gateway?: string } = {}): StandIn {
  const name = options.gateway ?? GATEWAY_NAME;
  const deploymentName = `${name}-istio`;
  const json = async (path: string): Promise<Json> => {
    const response = await rawRequest(access, path);
    return response.status === 200 ? JSON.parse(response.body) : undefined;
  };
  const create = async (path: string, object: unknown) => {
    const created = await rawRequest(access, path, { method: 'POST', contentType: 'application/json', body: JSON.stringify(object) });
    assert.equal(created.status, 201, created.body);
  };
  let stopped = false;
  const seen = (async () => {
    while (!stopped) {
      const gateway = await json(`/apis/gateway.networking.k8s.io/v1/namespaces/${namespace}/gateways/${name}`);
      const gatewayOptions = await json(`/api/v1/namespaces/${namespace}/configmaps/${GATEWAY_OPTIONS}`);
      if (!gateway || !gatewayOptions) {
        await new Promise((r) => setTimeout(r, 200));
        continue;
      }
      const secret = await json(`/api/v1/namespaces/${namespace}/secrets/${GATEWAY_TLS_SECRET}`);
      const replicas = JSON.parse(gatewayOptions.data.deployment).spec.replicas as number;
      const labels = { 'gateway.networking.k8s.io/gateway-name': name, 'istio.io/gateway-name': name };
      const ownerReferences = [{ apiVersion: 'gateway.networking.k8s.io/v1', kind: 'Gateway', name, uid: gateway.metadata.uid }];
      await create(`/apis/apps/v1/namespaces/${namespace}/deployments`, {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: deploymentName, labels, ownerReferences },
        spec: {
          replicas,
          selector: { matchLabels: labels },
          template: { metadata: { labels }, spec: { containers: [{ name: 'istio-proxy', image: 'istio/proxyv2:standin' }] } },
        },
      });
      if (options.service) {
        await create(`/api/v1/namespaces/${namespace}/services`, {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name: deploymentName, labels, ownerReferences },
          spec: { type: 'ClusterIP', selector: labels, ports: [{ name: 'https', port: 443, targetPort: 443 }] },
        });
      }
      await markGatewayProgrammed(access, namespace, name, gateway.metadata.generation);
      return { gateway, secret, options: gatewayOptions };
    }
    throw new Error('stand-in stopped before the Gateway appeared');
  })();
  return { stop: () => (stopped = true), seen };
}

/** Sets a Gateway's Accepted and Programmed conditions, as istiod does once it has deployed it. */
export async function markGatewayProgrammed(access: ClusterAccess, namespace: string, name: string, generation: number): Promise<void> {
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const condition = (type: string) => ({
    type,
    status: 'True',
    reason: type,
    message: 'stand-in for istiod',
    lastTransitionTime: now,
    observedGeneration: generation,
  });
  const status = await rawRequest(access, `/apis/gateway.networking.k8s.io/v1/namespaces/${namespace}/gateways/${name}/status`, {
    method: 'PATCH',
    contentType: 'application/merge-patch+json',
    body: JSON.stringify({ status: { conditions: [condition('Accepted'), condition('Programmed')] } }),
  });
  assert.equal(status.status, 200, status.body);
}
