// Step 3: the meshes the modes need, with their own CLIs: the Gateway API CRDs (waypoints, the
// ingress gateway, Linkerd), Istio (with each mode's own revision) and Linkerd. Undone after the
// workloads are gone (the namespaces step's undo runs first): a mesh's CNI agent must outlive the
// pods it set up (`istioctl uninstall --purge` deletes the istio-cni-node DaemonSet, whose agent
// removes /opt/cni/bin/istio-cni as it stops, and a pod still terminating then cannot be torn
// down: istio/istio#59846). Only a mesh this run installed is removed, then the run's namespaces
// that are left (the meshes' own).
import { istioRevisions } from '../../../config/istio-revisions.ts';
import type { ClusterRun } from '../cluster-run.ts';
import { ensureGatewayApi } from '../mesh/gateway-api.ts';
import { installIstio, ISTIO_NAMESPACE, uninstallIstio } from '../mesh/istio.ts';
import { installLinkerd, LINKERD_NAMESPACE, uninstallLinkerd } from '../mesh/linkerd.ts';
import { needsGatewayApi, usesIstio } from '../mesh/modes.ts';
import { COMPONENT, deleteNamespaces, readNamespace, RUN_ID } from '../ownership.ts';
import { runSelector } from './cluster-objects.ts';
import { type ClusterStep, TEARDOWN_TIMEOUT_MS } from './step.ts';

export const meshes: ClusterStep = {
  name: 'meshes',
  async up(run) {
    const mesh = run.meshContext();
    const kinds = new Set(run.placements.map((p) => p.mesh));
    const ingress = run.ingress !== undefined;
    const revisions = istioRevisions(
      run.placements.map((p) => p.mode),
      run.k8s.istio,
    );
    // The ingress is Istio's gateway: it needs the Gateway API CRDs and Istio, whatever the modes.
    if ([...kinds].some(needsGatewayApi) || ingress) run.gatewayApi = await ensureGatewayApi(mesh);
    if ([...kinds].some(usesIstio) || (ingress && !kinds.has('existing')))
      run.meshes.push(await installIstio(mesh, kinds.has('istio-ambient') || kinds.has('istio-waypoint'), revisions));
    if (kinds.has('linkerd')) run.meshes.push(await installLinkerd(mesh));
  },
  async down(run, teardown) {
    if (!run.created || !run.access) return;
    const mesh = { ...run.meshContext(), signal: teardown.signal };
    const selector = runSelector(run.context.runId);
    // Istio's cluster-scoped objects (its ClusterRoles, webhooks, CRDs) carry no label of ours:
    // `mesh-perf down` finds Istio by istio-system's labels. So istio-system stays until Istio's
    // removal is known to be done; a failed ownership read is a failed removal, not "not ours"
    // (teardown.attempt waits out an API server that is not back yet, as the run's calls do).
    let istioDone = false;
    await teardown.attempt('Istio uninstall', async () => {
      if (await createdThisRun(run, ISTIO_NAMESPACE)) await uninstallIstio(mesh);
      istioDone = true;
    });
    await teardown.attempt('Linkerd removal', async () => {
      if (await createdThisRun(run, LINKERD_NAMESPACE)) await uninstallLinkerd(mesh, selector);
    });
    const namespaces = istioDone ? selector : `${selector},${METADATA_NAME}!=${ISTIO_NAMESPACE}`;
    await teardown.attempt('mesh namespaces', () => deleteNamespaces(run.access!, namespaces, TEARDOWN_TIMEOUT_MS, teardown.signal));
  },
};

/** The label the API server puts on every namespace, its name: lets a selector leave one out. */
const METADATA_NAME = 'kubernetes.io/metadata.name';

/**
 * A mesh's namespace this run made (its labels say so), as opposed to one that was there before or
 * that `mesh-perf up` left. A read that fails throws: the caller's removal then counts as not done.
 */
async function createdThisRun(run: ClusterRun, namespace: string): Promise<boolean> {
  const found = await readNamespace(run.access!, namespace);
  return found?.metadata.labels?.[RUN_ID] === run.context.runId && found.metadata.labels?.[COMPONENT] !== undefined;
}
