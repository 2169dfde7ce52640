// Step 6 (kubernetes.ingress): the ingress Gateways, one per Istio revision the modes use, in the
// ingress namespace, and each mode's HTTPRoute in its own. Namespaced: gone with the namespaces.
import { revisionName } from '../../../config/istio-revisions.ts';
import { gatewayName, gatewayObjects, routeObject } from '../ingress.ts';
import type { ClusterStep } from './step.ts';

export const ingressRoutes: ClusterStep = {
  name: 'ingress gateways and routes',
  async up(run) {
    const ingress = run.ingress;
    if (!ingress) return;
    const { settings, namespace } = ingress;
    const labels = run.ownLabels;
    const revisions = run.gatewayRevisions();
    await run.applier!.apply(gatewayObjects(settings, namespace, run.context.runId, revisions), {
      namespace,
      labels,
      signal: run.context.signal,
    });
    for (const p of run.placements)
      await run.applier!.apply([routeObject(p.mode.name, namespace, revisionName(p.mode))], {
        namespace: p.namespace,
        labels,
        signal: run.context.signal,
      });
    const names = revisions.map((revision) => `${gatewayName(revision)}${revision ? ` (Istio revision ${revision})` : ''}`);
    run.context.log.info(
      `ingress: Gateway${names.length === 1 ? '' : 's'} ${names.join(', ')} (gatewayClassName istio, ${settings.replicas} pod${settings.replicas === 1 ? '' : 's'}${names.length === 1 ? '' : ' each'}, ${settings.tls ? 'HTTPS, self-signed certificate' : 'HTTP'}) in ${namespace}`,
    );
  },
};
