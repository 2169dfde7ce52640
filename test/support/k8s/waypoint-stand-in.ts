// istiod's waypoint controller, for a local control plane whose istiod pods are emulated (kwok) and
// so never deploy a waypoint: for each namespace given, once `istioctl waypoint apply` has created
// the Gateway `waypoint`, it creates the Deployment istiod would (labelled with the Gateway's name,
// owned by it) and sets the Gateway's Accepted and Programmed conditions, which istioctl's --wait
// and the run's readiness wait for. It records each Gateway as it found it (its istio.io/rev label
// says which revision was to program it).
import assert from 'node:assert/strict';
import { rawRequest, type ClusterAccess } from '../../../src/platform/kubernetes/access.ts';
import { WAYPOINT_NAME } from '../../../src/platform/kubernetes/mesh/istio.ts';
import { markGatewayProgrammed } from './istiod-stand-in.ts';

type Json = any;

export interface WaypointStandIn {
  /** The Gateway per namespace, as it was when the stand-in programmed it. */
  gateways: Map<string, Json>;
  stop(): Promise<void>;
}

export function waypointStandIn(access: ClusterAccess, namespaces: readonly string[]): WaypointStandIn {
  const gateways = new Map<string, Json>();
  let stopped = false;
  const program = async (namespace: string): Promise<boolean> => {
    const found = await rawRequest(access, `/apis/gateway.networking.k8s.io/v1/namespaces/${namespace}/gateways/${WAYPOINT_NAME}`);
    if (found.status !== 200) return false;
    const gateway = JSON.parse(found.body) as Json;
    const labels = { 'gateway.networking.k8s.io/gateway-name': WAYPOINT_NAME };
    const created = await rawRequest(access, `/apis/apps/v1/namespaces/${namespace}/deployments`, {
      method: 'POST',
      contentType: 'application/json',
      body: JSON.stringify({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: {
          name: WAYPOINT_NAME,
          labels,
          ownerReferences: [
            { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'Gateway', name: WAYPOINT_NAME, uid: gateway.metadata.uid },
          ],
        },
        spec: {
          replicas: 1,
          selector: { matchLabels: labels },
          template: { metadata: { labels }, spec: { containers: [{ name: 'istio-proxy', image: 'istio/proxyv2:standin' }] } },
        },
      }),
    });
    assert.ok([201, 409].includes(created.status), created.body);
    await markGatewayProgrammed(access, namespace, WAYPOINT_NAME, gateway.metadata.generation);
    gateways.set(namespace, gateway);
    return true;
  };
  const loop = (async () => {
    const waiting = new Set(namespaces);
    while (!stopped && waiting.size > 0) {
      for (const namespace of [...waiting]) if (await program(namespace)) waiting.delete(namespace);
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  let failure: unknown;
  loop.catch((error) => (failure = error));
  return {
    gateways,
    async stop() {
      stopped = true;
      await loop.catch(() => undefined);
      if (failure) throw failure;
    },
  };
}
