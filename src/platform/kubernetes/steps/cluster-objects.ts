// Step 2: from here on the run owns what it creates, every object labelled with its suite and run
// id (ownership.ts). Creates nothing itself; its undo, the last of the teardown, removes the
// run's labelled cluster-scoped objects (the Gateway API CRDs it installed, the meshes' leftovers).
import { deleteLabelledClusterObjects } from '../mesh/cleanup.ts';
import { MANAGED_BY, MANAGER, RUN_ID } from '../ownership.ts';
import type { ClusterStep } from './step.ts';

export const runSelector = (runId: string) => `${MANAGED_BY}=${MANAGER},${RUN_ID}=${runId}`;

export const clusterObjects: ClusterStep = {
  name: 'cluster-scoped objects',
  async up(run) {
    run.created = true;
  },
  async down(run, teardown) {
    if (!run.created || !run.access) return;
    await teardown.attempt('cluster-scoped objects', () => deleteLabelledClusterObjects(run.access!, runSelector(run.context.runId)));
  },
};
