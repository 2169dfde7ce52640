// Step 9: each mode's server, ready, then the ingress gateways ready. A mode with its own echo
// image or server manifests (an A/B arm's, modes[].echoImage, modes[].serverManifests) gets its
// own, and its own Deployments are what it waits for. Namespaced: gone with the namespaces.
import { CLIENT_NAME } from '../resources/groups.ts';
import { waitGatewayReady } from '../ingress.ts';
import { withoutClientAvoidance } from '../placement.ts';
import { rolloutTarget, waitReady } from '../wait.ts';
import { renderWorkload } from '../workloads.ts';
import type { ClusterStep } from './step.ts';

export const servers: ClusterStep = {
  name: 'servers',
  async up(run) {
    const access = run.access!;
    const servers = run.placements
      .map((p) =>
        p.mode.echoImage || p.mode.serverManifests || p.mode.arm
          ? renderWorkload(run.config, run.cwd, undefined, {
              echoImage: p.mode.echoImage,
              serverManifests: p.mode.serverManifests,
              arm: p.mode.arm,
            }).server
          : run.workload!.server,
      )
      .map((server) => (run.sharedNode ? withoutClientAvoidance(server, CLIENT_NAME) : server));
    for (const [i, p] of run.placements.entries())
      await run.applier!.apply(servers[i]!, { namespace: p.namespace, labels: run.ownLabels, signal: run.context.signal });
    await Promise.all(
      run.placements.flatMap((p, i) =>
        servers[i]!.filter((o) => o.kind === 'Deployment')
          .map((o) => o.metadata!.name!)
          .map((name) =>
            waitReady(
              access,
              rolloutTarget('Deployment', p.namespace, name, name === 'echo' ? 'app=echo' : undefined),
              run.readyTimeoutMs,
              run.context.signal,
            ),
          ),
      ),
    );
    for (const p of run.placements) run.replicasOf.set(p.namespace, run.k8s.replicas);
    const ingress = run.ingress;
    if (ingress)
      await Promise.all(
        run
          .gatewayRevisions()
          .map((revision) =>
            waitGatewayReady(access, ingress.namespace, ingress.settings.replicas, run.readyTimeoutMs, run.context.signal, revision),
          ),
      );
    run.context.log.info(`ready: ${run.placements.map((p) => `${p.mode.name} → ${p.namespace}`).join(', ')}`);
  },
};
