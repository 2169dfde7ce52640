// The mutual TLS policy in force for each mode's server, read from the cluster once the run is up
// (results: modes[].mtls). Istio: the PeerAuthentication objects as istiod resolves them for the
// echo pods' HTTP port (peer-authentication.ts), with the narrower exceptions (k6-operator's
// runners). Linkerd: meshed pods always talk mutual TLS to each other; whether plaintext from an
// unmeshed client is admitted is the default inbound policy (the namespace's annotation, else the
// installation's proxy.defaultInboundPolicy, "all-unauthenticated" by default).
import type { MeshKind } from '../../../config/schema.ts';
import type { MtlsPolicy } from '../../../results/types.ts';
import { rawRequest, type ClusterAccess } from '../access.ts';
import { ECHO_HTTP_PORT, ECHO_SERVICE } from '../workloads.ts';
import { ISTIO_NAMESPACE } from './istio.ts';
import { LINKERD_NAMESPACE, readLinkerdConfig } from './linkerd.ts';
import { valueAt } from './linkerd-state.ts';
import { usesIstio } from './modes.ts';
import { effectiveMtls, relaxations, type PeerAuthenticationView } from './peer-authentication.ts';

export const LINKERD_INBOUND_POLICY = 'config.linkerd.io/default-inbound-policy';

/** What a Linkerd default inbound policy admits, in Istio's words (linkerd2 charts/linkerd-control-plane/values.yaml lists them). */
const LINKERD_POLICIES: Record<string, MtlsPolicy['mode']> = {
  'all-unauthenticated': 'PERMISSIVE',
  'cluster-unauthenticated': 'PERMISSIVE',
  'all-authenticated': 'STRICT',
  'cluster-authenticated': 'STRICT',
  audit: 'PERMISSIVE',
};

export interface ModeNamespace {
  name: string;
  mesh: MeshKind;
  namespace: string;
  /** The annotations the mode's namespace carries (a Linkerd policy may be set there). */
  annotations: Record<string, string>;
}

async function json<T>(access: ClusterAccess, path: string): Promise<T | undefined> {
  const response = await rawRequest(access, path, { timeoutMs: 15_000 }).catch(() => undefined);
  return response?.status === 200 ? (JSON.parse(response.body) as T) : undefined;
}

async function peerAuthentications(access: ClusterAccess, namespace: string): Promise<PeerAuthenticationView[] | undefined> {
  const list = await json<{ items: PeerAuthenticationView[] }>(
    access,
    `/apis/security.istio.io/v1/namespaces/${namespace}/peerauthentications`,
  );
  return list?.items.map((p) => ({ ...p, metadata: { ...p.metadata, namespace } }));
}

/** The labels the echo Service selects (the pods' labels the policies are matched against). */
async function echoLabels(access: ClusterAccess, namespace: string): Promise<Record<string, string>> {
  const service = await json<{ spec?: { selector?: Record<string, string> } }>(
    access,
    `/api/v1/namespaces/${namespace}/services/${ECHO_SERVICE}`,
  );
  return service?.spec?.selector ?? { app: 'echo' };
}

export async function modeMtlsPolicies(access: ClusterAccess, modes: readonly ModeNamespace[]): Promise<Record<string, MtlsPolicy>> {
  const out: Record<string, MtlsPolicy> = {};
  const root = modes.some((m) => usesIstio(m.mesh)) ? await peerAuthentications(access, ISTIO_NAMESPACE) : [];
  let linkerdDefault: string | undefined;
  for (const mode of modes) {
    if (mode.mesh === 'baseline') out[mode.name] = { mode: 'none', source: 'no mesh' };
    else if (mode.mesh === 'existing') out[mode.name] = { mode: 'unknown', source: 'mesh "existing": its policies are not inspected' };
    else if (mode.mesh === 'linkerd') {
      linkerdDefault ??= await linkerdDefaultPolicy(access);
      const own = mode.annotations[LINKERD_INBOUND_POLICY];
      const policy = own ?? linkerdDefault;
      out[mode.name] = {
        mode: LINKERD_POLICIES[policy] ?? 'unknown',
        source: `Linkerd default inbound policy ${policy} (${own ? `namespace annotation ${LINKERD_INBOUND_POLICY}` : `${LINKERD_NAMESPACE}/linkerd-config`}); meshed clients always use mutual TLS`,
      };
    } else {
      const own = await peerAuthentications(access, mode.namespace);
      if (!root || !own) {
        out[mode.name] = { mode: 'unknown', source: 'the cluster does not serve security.istio.io/v1 PeerAuthentication' };
        continue;
      }
      const policies = [...root, ...own];
      const resolved = effectiveMtls(
        policies,
        { namespace: mode.namespace, labels: await echoLabels(access, mode.namespace), port: ECHO_HTTP_PORT },
        ISTIO_NAMESPACE,
      );
      const exceptions = relaxations(policies, mode.namespace, ISTIO_NAMESPACE);
      out[mode.name] = { ...resolved, ...(exceptions.length > 0 ? { exceptions } : {}) };
    }
  }
  return out;
}

async function linkerdDefaultPolicy(access: ClusterAccess): Promise<string> {
  const installed = await readLinkerdConfig({ access }).catch(() => undefined);
  return (installed && valueAt(installed.values, 'proxy.defaultInboundPolicy')) || 'all-unauthenticated';
}
