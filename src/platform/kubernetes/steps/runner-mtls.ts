// Step 5: k6-operator's controller and starter reach the runners' REST API in plaintext from
// outside the mesh: under Istio (whose mesh-wide policy mesh-perf sets to STRICT) each Istio
// mode's namespace, where its runners run, accepts plaintext on their port 6565 alone
// (runnerPeerAuthentication). With an ingress the runners run in its namespace, outside any mesh.
// Namespaced: gone with the namespaces.
import { usesIstio } from '../mesh/modes.ts';
import { runnerPeerAuthentication } from '../k6-operator/testrun.ts';
import type { ClusterStep } from './step.ts';

export const runnerMtlsExceptions: ClusterStep = {
  name: 'k6-operator runners outside mTLS',
  async up(run) {
    if (run.engine !== 'k6-operator' || run.ingress) return;
    for (const p of run.placements.filter((p) => usesIstio(p.mesh)))
      await run.applier!.apply([runnerPeerAuthentication() as never], {
        namespace: p.namespace,
        labels: run.ownLabels,
        signal: run.context.signal,
      });
  },
};
