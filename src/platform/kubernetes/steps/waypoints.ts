// Step 8: the waypoint of each istio-waypoint mode's namespace (its own Istio revision's when the
// mode has one). Namespaced: gone with the namespaces.
import { revisionName } from '../../../config/istio-revisions.ts';
import { applyWaypoint } from '../mesh/istio.ts';
import type { ClusterStep } from './step.ts';

export const waypoints: ClusterStep = {
  name: 'waypoints',
  async up(run) {
    const mesh = run.meshContext();
    for (const p of run.placements) if (p.mesh === 'istio-waypoint') await applyWaypoint(mesh, p.namespace, revisionName(p.mode));
  },
};
