// kubernetes.ingress: every mode's traffic enters through Istio's ingress gateway, as seeds 000
// (Kyma, 10 replicas over HTTPS) and 004 (UDS's tenant gateway) measure. One Gateway API Gateway
// with gatewayClassName istio in its own namespace: istiod deploys it (Deployment and Service
// `<name>-istio`) and scales it to the replicas of the options ConfigMap it is pointed at. Each
// mode gets an HTTPRoute in its own namespace under the path prefix /<mode>, rewritten to /, so
// baseline and meshed modes reach the same workload through the same gateway. The k6 client
// runs in the gateway's namespace, outside any mesh, like the seeds' external load generators.
// Modes under their own Istio revision (an A/B arm's `istio`) enter through their own Gateway,
// `<gateway>-<revision>`, labelled istio.io/rev so that revision's istiod deploys it: each arm's
// traffic crosses its own version's gateway proxy, as a canary upgrade of the gateway does.
import type { KubernetesObject } from '@kubernetes/client-node';
import { formatDuration } from '../../config/duration.ts';
import { EnvironmentError } from '../../util/errors.ts';
import { rawRequest, type ClusterAccess } from './access.ts';
import { RUN_ID } from './ownership.ts';
import { selfSignedCertificate } from './self-signed.ts';
import { describeNotReady, rolloutTarget, waitReady, type WaitTarget } from './wait.ts';
import { ECHO_HTTP_PORT, ECHO_SERVICE } from './workloads.ts';

export const GATEWAY_NAME = 'mesh-perf-gateway';
export const GATEWAY_CLASS = 'istio';
/** istiod names what it deploys for a Gateway `<gateway>-<class>`: the run's gateway's. */
export const GATEWAY_DEPLOYMENT = gatewayDeployment();
export const GATEWAY_OPTIONS = `${GATEWAY_NAME}-options`;
export const GATEWAY_TLS_SECRET = `${GATEWAY_NAME}-tls`;
const GATEWAY_API = 'gateway.networking.k8s.io/v1';

export interface IngressSettings {
  replicas: number;
  tls: boolean;
}

export function ingressNamespace(prefix: string): string {
  return `${prefix}-ingress`;
}

/** The Gateway a mode enters through: the run's, or its Istio revision's own. */
export function gatewayName(revision?: string): string {
  return revision ? `${GATEWAY_NAME}-${revision}` : GATEWAY_NAME;
}

/** istiod's Deployment and Service for that Gateway (`<gateway>-<class>`). */
function gatewayDeployment(revision?: string): string {
  return `${gatewayName(revision)}-${GATEWAY_CLASS}`;
}

/** The gateway's in-cluster address: what the client pod sends to. */
export function gatewayUrl(namespace: string, tls: boolean, mode: string, revision?: string): string {
  return `${tls ? 'https' : 'http'}://${gatewayDeployment(revision)}.${namespace}.svc.cluster.local/${mode}/`;
}

/**
 * The Gateways (one per revision in `revisions`, undefined being the run's own Istio), their
 * options ConfigMap and (for HTTPS) one TLS Secret naming every gateway's host, all in the
 * ingress namespace.
 */
export function gatewayObjects(
  settings: IngressSettings,
  namespace: string,
  runId: string,
  revisions: readonly (string | undefined)[] = [undefined],
): KubernetesObject[] {
  const listener = settings.tls
    ? {
        name: 'https',
        port: 443,
        protocol: 'HTTPS',
        tls: { mode: 'Terminate', certificateRefs: [{ kind: 'Secret', name: GATEWAY_TLS_SECRET }] },
      }
    : { name: 'http', port: 80, protocol: 'HTTP' };
  const objects: KubernetesObject[] = [
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: GATEWAY_OPTIONS },
      // Istio overlays this on the Deployment it generates: exactly `replicas` pods, as Kyma pins
      // its gateway (minimum = maximum = 10).
      data: { deployment: JSON.stringify({ spec: { replicas: settings.replicas } }) },
    } as KubernetesObject,
    ...revisions.map(
      (revision) =>
        ({
          apiVersion: GATEWAY_API,
          kind: 'Gateway',
          // A ClusterIP Service: the client is in the cluster, and on kind a LoadBalancer Service
          // never gets an address, which would keep the Gateway from being Programmed.
          metadata: {
            name: gatewayName(revision),
            annotations: { 'networking.istio.io/service-type': 'ClusterIP' },
            ...(revision ? { labels: { 'istio.io/rev': revision } } : {}),
          },
          spec: {
            gatewayClassName: GATEWAY_CLASS,
            infrastructure: { parametersRef: { group: '', kind: 'ConfigMap', name: GATEWAY_OPTIONS } },
            listeners: [
              { ...listener, allowedRoutes: { namespaces: { from: 'Selector', selector: { matchLabels: { [RUN_ID]: runId } } } } },
            ],
          },
        }) as KubernetesObject,
    ),
  ];
  if (settings.tls) {
    const { certPem, keyPem } = selfSignedCertificate(
      revisions.flatMap((revision) => [
        `${gatewayDeployment(revision)}.${namespace}.svc.cluster.local`,
        `${gatewayDeployment(revision)}.${namespace}.svc`,
      ]),
    );
    objects.push({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: GATEWAY_TLS_SECRET },
      type: 'kubernetes.io/tls',
      data: { 'tls.crt': Buffer.from(certPem).toString('base64'), 'tls.key': Buffer.from(keyPem).toString('base64') },
    } as KubernetesObject);
  }
  return objects;
}

/** The mode's route: /<mode>/… on its gateway → the echo Service of its namespace, prefix removed. */
export function routeObject(mode: string, gatewayNamespace: string, revision?: string): KubernetesObject {
  return {
    apiVersion: GATEWAY_API,
    kind: 'HTTPRoute',
    metadata: { name: `${GATEWAY_NAME}-${mode}` },
    spec: {
      parentRefs: [{ name: gatewayName(revision), namespace: gatewayNamespace }],
      rules: [
        {
          matches: [{ path: { type: 'PathPrefix', value: `/${mode}` } }],
          filters: [{ type: 'URLRewrite', urlRewrite: { path: { type: 'ReplacePrefixMatch', replacePrefixMatch: '/' } } }],
          backendRefs: [{ name: ECHO_SERVICE, port: ECHO_HTTP_PORT }],
        },
      ],
    },
  } as KubernetesObject;
}

interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

export function gatewayProgrammed(gateway: { status?: Record<string, unknown> }): boolean {
  const conditions = (gateway.status?.conditions ?? []) as Condition[];
  return conditions.some((c) => c.type === 'Programmed' && c.status === 'True');
}

/**
 * Waits until istiod has programmed the Gateway and its Deployment runs exactly `replicas` ready
 * pods. On timeout the message names the object and what it lacks (no GatewayClass istio, the
 * Gateway's conditions, unschedulable pods and why).
 */
export async function waitGatewayReady(
  access: ClusterAccess,
  namespace: string,
  replicas: number,
  timeoutMs: number,
  signal?: AbortSignal,
  revision?: string,
): Promise<void> {
  const started = Date.now();
  const name = gatewayName(revision);
  const gateway: WaitTarget = {
    listPath: `/apis/${GATEWAY_API}/namespaces/${namespace}/gateways`,
    name,
    description: `Gateway ${name}${revision ? ` (Istio revision ${revision})` : ''} in namespace ${namespace}`,
    ready: gatewayProgrammed,
    namespace,
  };
  try {
    await waitReady(access, gateway, timeoutMs, signal);
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new EnvironmentError(
      `kubernetes.ingress: ${gateway.description} was not Programmed within ${formatDuration(timeoutMs)}.\n${await gatewayDiagnosis(access, namespace, name)}`,
    );
  }
  const deploymentName = gatewayDeployment(revision);
  const deployment = rolloutTarget('Deployment', namespace, deploymentName, `gateway.networking.k8s.io/gateway-name=${name}`);
  const scaled: WaitTarget = {
    ...deployment,
    description: `Deployment ${deploymentName} (istiod's deployment of Gateway ${name}) in namespace ${namespace} with ${replicas} ready pod${replicas === 1 ? '' : 's'}`,
    ready: (d) => deployment.ready(d) && (d.spec as { replicas?: number } | undefined)?.replicas === replicas,
  };
  try {
    await waitReady(access, scaled, Math.max(1000, timeoutMs - (Date.now() - started)), signal);
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new EnvironmentError(`kubernetes.ingress.replicas: ${(error as Error).message}`);
  }
}

async function gatewayDiagnosis(access: ClusterAccess, namespace: string, name: string): Promise<string> {
  const lines: string[] = [];
  const gatewayClass = await rawRequest(access, `/apis/${GATEWAY_API}/gatewayclasses/${GATEWAY_CLASS}`, { timeoutMs: 10_000 }).catch(
    () => undefined,
  );
  if (gatewayClass?.status === 404)
    lines.push(`  the cluster has no GatewayClass "${GATEWAY_CLASS}": is Istio's control plane running (istiod creates it)?`);
  const found = await rawRequest(access, `/apis/${GATEWAY_API}/namespaces/${namespace}/gateways/${name}`, {
    timeoutMs: 10_000,
  }).catch(() => undefined);
  if (found?.status === 200) {
    const conditions = ((JSON.parse(found.body) as { status?: { conditions?: Condition[] } }).status?.conditions ?? []).filter(
      (c) => c.status !== 'True',
    );
    for (const c of conditions)
      lines.push(`  condition ${c.type}=${c.status}${c.reason ? ` (${c.reason})` : ''}${c.message ? `: ${c.message}` : ''}`);
    if (conditions.length === 0) lines.push('  the Gateway has no status yet: nothing (istiod) has accepted it');
  }
  return `${lines.join('\n')}\n${await describeNotReady(access, namespace, `gateway.networking.k8s.io/gateway-name=${name}`)}`.trim();
}
