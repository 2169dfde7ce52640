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
    const owner = { suite: run.config.suite, runId: run.context.runId, keptUntilDown: run.context.keptUntilDown };
    const kept: string[] = [];
    const claim = async (request: Parameters<typeof claimNamespace>[1]) => {
      const claimed = await claimNamespace(access, request, run.context.signal);
      if (typeof claimed === 'object') kept.push(`${request.name} (run ${claimed.kept})`);
    };
    for (const p of run.placements) {
      const setup = namespaceSetup(p.mode, p.mesh);
      await claim({ name: p.namespace, ...owner, labels: { ...setup.labels, [MODE]: p.mode.name }, annotations: setup.annotations });
    }
    const ingress = run.ingress;
    if (ingress) await claim({ name: ingress.namespace, ...owner, labels: { [COMPONENT]: 'ingress' } });
    if (kept.length > 0)
      run.context.log.info(
        `using what \`mesh-perf up\` left: ${kept.join(', ')}; this run's teardown leaves ${kept.length === 1 ? 'it' : 'them'} to \`mesh-perf down\``,
      );
  },
  async down(run, teardown) {
    if (!run.created || !run.access) return;
    const selector = runSelector(run.context.runId);
    if (run.engine === 'k6-operator') await teardown.attempt('k6-operator TestRuns', () => deleteLabelledTestRuns(run.access!, selector));
    await teardown.attempt('namespaces', () =>
      deleteNamespaces(run.access!, workloadNamespaces(selector), TEARDOWN_TIMEOUT_MS, teardown.signal),
    );
  },
};
