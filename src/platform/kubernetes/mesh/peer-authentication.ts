// Which mutual TLS mode Istio enforces for a workload's port, from the PeerAuthentication objects
// in the cluster, resolved as istiod resolves them (Istio 1.30: pilot/pkg/security/authn for
// sidecars, pilot/pkg/serviceregistry/ambient/authorization.go convertedSelectorPeerAuthentications
// for ztunnel): the mesh-wide policy (root namespace, no selector), overridden by the namespace's
// (no selector), overridden by the workload's (a selector matching its labels), each the oldest of
// its kind when several exist; UNSET inherits; a workload policy's portLevelMtls entry for the
// port wins over its own mode. Nothing at all: PERMISSIVE, Istio's default. Pure.

export type IstioMtlsMode = 'STRICT' | 'PERMISSIVE' | 'DISABLE';

export interface PeerAuthenticationView {
  metadata: { name: string; namespace?: string; creationTimestamp?: string };
  spec?: {
    selector?: { matchLabels?: Record<string, string> } | null;
    mtls?: { mode?: string } | null;
    portLevelMtls?: Record<string, { mode?: string } | null> | null;
  };
}

export interface Workload {
  namespace: string;
  labels: Record<string, string>;
  /** The pod's port the traffic arrives on (a container port). */
  port?: number;
}

export interface ResolvedMtls {
  mode: IstioMtlsMode;
  /** "PeerAuthentication istio-system/default (mesh-wide)", or Istio's default. */
  source: string;
}

const MODES = new Set<string>(['STRICT', 'PERMISSIVE', 'DISABLE']);

function modeOf(mtls: { mode?: string } | null | undefined): IstioMtlsMode | undefined {
  const mode = mtls?.mode;
  return mode && MODES.has(mode) ? (mode as IstioMtlsMode) : undefined;
}

function hasSelector(policy: PeerAuthenticationView): boolean {
  return Object.keys(policy.spec?.selector?.matchLabels ?? {}).length > 0;
}

function selects(policy: PeerAuthenticationView, labels: Record<string, string>): boolean {
  return Object.entries(policy.spec?.selector?.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
}

/** istiod takes the oldest when several policies of one level apply (then the name, for a stable answer). */
function oldest(policies: PeerAuthenticationView[]): PeerAuthenticationView | undefined {
  return [...policies].sort(
    (a, b) =>
      (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '') ||
      a.metadata.name.localeCompare(b.metadata.name),
  )[0];
}

function named(policy: PeerAuthenticationView, scope: string): string {
  return `PeerAuthentication ${policy.metadata.namespace}/${policy.metadata.name} (${scope})`;
}

export function effectiveMtls(
  policies: readonly PeerAuthenticationView[],
  workload: Workload,
  rootNamespace = 'istio-system',
): ResolvedMtls {
  const mesh = oldest(policies.filter((p) => p.metadata.namespace === rootNamespace && !hasSelector(p)));
  const namespace =
    workload.namespace === rootNamespace
      ? undefined
      : oldest(policies.filter((p) => p.metadata.namespace === workload.namespace && !hasSelector(p)));
  const own = oldest(policies.filter((p) => p.metadata.namespace === workload.namespace && hasSelector(p) && selects(p, workload.labels)));
  let resolved: ResolvedMtls = { mode: 'PERMISSIVE', source: "Istio's default (no PeerAuthentication applies)" };
  const meshMode = modeOf(mesh?.spec?.mtls);
  if (mesh && meshMode) resolved = { mode: meshMode, source: named(mesh, 'mesh-wide') };
  const namespaceMode = modeOf(namespace?.spec?.mtls);
  if (namespace && namespaceMode) resolved = { mode: namespaceMode, source: named(namespace, 'namespace') };
  if (own) {
    const ownMode = modeOf(own.spec?.mtls);
    if (ownMode) resolved = { mode: ownMode, source: named(own, 'workload') };
    const portMode = workload.port === undefined ? undefined : modeOf(own.spec?.portLevelMtls?.[String(workload.port)]);
    if (portMode) resolved = { mode: portMode, source: named(own, `workload, port ${workload.port}`) };
  }
  return resolved;
}

/**
 * Workload policies of a namespace that make some port of the pods they select accept less than
 * the namespace's own mode: "port 6565 PERMISSIVE for pods app=k6,runner=true (PeerAuthentication
 * ns/name)". What a reader of the results needs to know was relaxed, and where.
 */
export function relaxations(policies: readonly PeerAuthenticationView[], namespace: string, rootNamespace = 'istio-system'): string[] {
  const base = effectiveMtls(policies, { namespace, labels: {} }, rootNamespace).mode;
  const weaker = (mode: IstioMtlsMode) => mode !== 'STRICT' && base === 'STRICT';
  const out: string[] = [];
  for (const policy of policies.filter((p) => p.metadata.namespace === namespace && hasSelector(p))) {
    const pods = Object.entries(policy.spec?.selector?.matchLabels ?? {})
      .map(([k, v]) => `${k}=${v}`)
      .join(',');
    const where = `PeerAuthentication ${namespace}/${policy.metadata.name}`;
    const own = modeOf(policy.spec?.mtls);
    if (own && weaker(own)) out.push(`${own} for pods ${pods} (${where})`);
    for (const [port, mtls] of Object.entries(policy.spec?.portLevelMtls ?? {})) {
      const mode = modeOf(mtls);
      if (mode && weaker(mode)) out.push(`port ${port} ${mode} for pods ${pods} (${where})`);
    }
  }
  return out;
}
