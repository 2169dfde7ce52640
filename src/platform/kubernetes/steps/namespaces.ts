// Step 4: each mode's namespace, enrolled in its mesh (labels and annotations of its mode), and the
// ingress gateway's. Every workload of the run lives in them, so their undo is the workloads'
// too: k6-operator's TestRuns first (their controller would recreate runner pods), then every
// namespace of the run but the meshes' own, waited until gone, pods with them.
import { deleteLabelledTestRuns } from '../k6-operator/cleanup.ts';
import { namespaceSetup } from '../mesh/modes.ts';
import { claimNamespace, COMPONENT, deleteNamespaces, MODE, workloadNamespaces } from '../ownership.ts';
import { runSelector } from './cluster-objects.ts';
import { type ClusterStep, TEARDOWN_TIMEOUT_MS } from './step.ts';

export const namespaces: ClusterStep = {
  name: 'namespaces',
  phase: 'Workloads',
  async up(run) {
    const access = run.access!;
    const owner = { suite: run.config.suite, runId: run.context.runId };
    for (const p of run.placements) {
      const setup = namespaceSetup(p.mode, p.mesh);
      await claimNamespace(
        access,
        { name: p.namespace, ...owner, labels: { ...setup.labels, [MODE]: p.mode.name }, annotations: setup.annotations },
        run.context.signal,
      );
    }
    const ingress = run.ingress;
    if (ingress) await claimNamespace(access, { name: ingress.namespace, ...owner, labels: { [COMPONENT]: 'ingress' } }, run.context.signal);
  },
  async down(run, teardown) {
    if (!run.created || !run.access) return;
    const selector = runSelector(run.context.runId);
    if (run.engine === 'k6-operator') await teardown.attempt('k6-operator TestRuns', () => deleteLabelledTestRuns(run.access!, selector));
    await teardown.attempt('namespaces', () => deleteNamespaces(run.access!, workloadNamespaces(selector), TEARDOWN_TIMEOUT_MS, teardown.signal));
  },
};
