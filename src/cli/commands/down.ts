// `mesh-perf down --config FILE`: remove everything mesh-perf created for the config's suite
// (found by label), or delete the kind cluster it created.
import { newRunId } from '../../pipeline.ts';
import type { Command } from '../command.ts';
import { OVERRIDE_FLAGS, overrideOptions, overrideValues } from '../override-options.ts';
import { loadClusterConfig } from './up.ts';

export const command: Command = {
  name: 'down',
  summary: 'Remove what mesh-perf created in the cluster for a config (namespaces, meshes, CRDs, the kind cluster)',
  usage: 'down --config FILE [overrides]',
  options: [
    { name: 'config', value: 'FILE', description: 'Config file (platform kind or kubeconfig)' },
    ...overrideOptions(OVERRIDE_FLAGS.cluster),
  ],
  details:
    "Only objects labelled app.kubernetes.io/managed-by=mesh-perf with the config's suite are removed; a mesh that was there before mesh-perf is left alone.",
  async run(context) {
    const config = await loadClusterConfig(context.args.options.config, context.cwd, overrideValues(context.args), 'down');
    const platformContext = { config, runId: newRunId(), signal: context.signal, log: context.log };
    // Loaded on use: the Kubernetes client is heavy and most commands never need it.
    const { deleteKindCluster } = await import('../../platform/kubernetes/kind/platform.ts');
    const { removeSuite } = await import('../../platform/kubernetes/down.ts');
    if (config.platform === 'kind') {
      const name = config.kubernetes.kind.clusterName;
      if (await deleteKindCluster(name, context.log)) context.stdout(`Deleted kind cluster "${name}".\n`);
      else context.stdout(`No kind cluster "${name}"; nothing to remove.\n`);
      return 0;
    }
    const report = await removeSuite(platformContext);
    const nothing = report.namespaces.length + report.clusterObjects.length + report.meshes.length + report.testRuns.length === 0;
    if (nothing) {
      context.stdout(`Nothing of suite "${config.suite}" found at ${report.server}.\n`);
      return 0;
    }
    context.stdout(`Removed from ${report.server}:\n`);
    if (report.meshes.length) context.stdout(`  meshes: ${report.meshes.join(', ')}\n`);
    if (report.testRuns.length) context.stdout(`  k6-operator TestRuns: ${report.testRuns.join(', ')}\n`);
    if (report.namespaces.length) context.stdout(`  namespaces: ${report.namespaces.join(', ')}\n`);
    if (report.clusterObjects.length) context.stdout(`  cluster-scoped objects: ${report.clusterObjects.length}\n`);
    return 0;
  },
};
