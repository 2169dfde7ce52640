// Step 7: the k6 client pods, ready, placed before the echo pods (which keep off their nodes): in
// each mode's namespace, or, with an ingress, one set outside any mesh in the gateway's.
// Namespaced: gone with the namespaces.
import { clientObjects, clientPodName } from '../clients.ts';
import { podTarget, waitReady } from '../wait.ts';
import type { ClusterStep } from './step.ts';

export const clients: ClusterStep = {
  name: 'k6 clients',
  async up(run) {
    const workload = run.workload!;
    const ingress = run.ingress;
    const namespaces = ingress ? [ingress.namespace] : run.placements.map((p) => p.namespace);
    const objects = clientObjects(workload.client, workload.clientPod, run.clientCount);
    for (const namespace of namespaces) await run.applier!.apply(objects, { namespace, labels: run.ownLabels, signal: run.context.signal });
    await Promise.all(
      namespaces.flatMap((namespace) =>
        Array.from({ length: run.clientCount }, (_, index) =>
          waitReady(run.access!, podTarget(namespace, clientPodName(workload.clientPod, index)), run.readyTimeoutMs, run.context.signal),
        ),
      ),
    );
  },
};
