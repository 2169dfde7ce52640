// `mesh-perf up --config FILE`: deploy the planned modes (meshes, namespaces, echo servers, k6
// client pods) and leave them running for inspection. `mesh-perf down` removes them.
import { resolve } from 'node:path';
import { loadConfig } from '../../config/load.ts';
import { newRunId } from '../../pipeline.ts';
import type { Config } from '../../config/validate.ts';
import type { PlatformContext } from '../../platform/types.ts';
import { UsageError } from '../../util/errors.ts';
import type { Command } from '../command.ts';
import { OVERRIDE_FLAGS, overrideOptions, overrideValues } from '../override-options.ts';

export async function loadClusterConfig(
  configOption: string | undefined,
  cwd: string,
  overrides: Record<string, string | undefined>,
  verb: string,
): Promise<Config> {
  if (!configOption) throw new UsageError(`--config FILE is required (the same config you run with)`);
  const config = await loadConfig({ file: resolve(cwd, configOption), overrides });
  if (config.platform !== 'kind' && config.platform !== 'kubeconfig') {
    throw new UsageError(
      `${verb} works with the kind and kubeconfig platforms; ${configOption} uses platform "${config.platform}" (set platform: kubeconfig or kind)`,
    );
  }
  return config;
}

export const command: Command = {
  name: 'up',
  summary: 'Deploy the modes and workloads of a config to the cluster and leave them for inspection',
  usage: 'up --config FILE [overrides]',
  options: [
    { name: 'config', value: 'FILE', description: 'Config file (platform kind or kubeconfig)' },
    ...overrideOptions(OVERRIDE_FLAGS.cluster),
  ],
  details: 'Everything created is labelled app.kubernetes.io/managed-by=mesh-perf; remove it with `mesh-perf down --config FILE`.',
  async run(context) {
    const config = await loadClusterConfig(context.args.options.config, context.cwd, overrideValues(context.args), 'up');
    const runId = newRunId();
    const platformContext: PlatformContext = { config, runId, signal: context.signal, log: context.log, keptUntilDown: true };
    // Loaded on use: the Kubernetes client is heavy and most commands never need it.
    const { KindPlatform } = await import('../../platform/kubernetes/kind/platform.ts');
    const { KubernetesPlatform } = await import('../../platform/kubernetes/platform.ts');
    const platform =
      config.platform === 'kind'
        ? new KindPlatform({
            ...platformContext,
            config: { ...config, kubernetes: { ...config.kubernetes, kind: { ...config.kubernetes.kind, keep: true } } },
          })
        : new KubernetesPlatform(platformContext, { cwd: context.cwd });
    try {
      await platform.prepare();
    } catch (error) {
      // Interrupted: remove what was made. Failed: leave it, so the failure can be inspected.
      if (context.signal.aborted) await platform.teardown().catch(() => undefined);
      else if (platform.hasCreated())
        context.log.warn(
          `left what was created in place for inspection; remove it with \`mesh-perf down --config ${context.args.options.config}\``,
        );
      throw error;
    }
    const environment = await platform.environment();
    const namespaces = (environment.namespaces ?? {}) as Record<string, string>;
    context.stdout(`Deployed run ${runId} (suite "${config.suite}"):\n`);
    for (const [mode, namespace] of Object.entries(namespaces)) context.stdout(`  ${mode.padEnd(20)} namespace ${namespace}\n`);
    const ingress = environment.ingress as
      | { namespace: string; gateway: string; gateways?: Record<string, string>; replicas: number; tls: boolean }
      | undefined;
    if (ingress) {
      // Modes under their own Istio revision have their own Gateway (environment.ingress.gateways).
      const gateways = [...new Set(Object.values(ingress.gateways ?? { all: ingress.gateway }))];
      context.stdout(
        `  ${'ingress gateway'.padEnd(20)} namespace ${ingress.namespace} (Gateway${gateways.length === 1 ? '' : 's'} ${gateways.join(', ')}, ${ingress.replicas} pod${ingress.replicas === 1 ? '' : 's'}${gateways.length === 1 ? '' : ' each'}, ${ingress.tls ? 'HTTPS' : 'HTTP'})\n`,
      );
    }
    context.stdout(`Remove everything with: mesh-perf down --config ${context.args.options.config}\n`);
    return 0;
  },
};
