// The k6-operator load runner of a Kubernetes platform run: runners placed like the client pod
// (its namespace, image, requests and limits), owned by the run.
import type { Config } from '../../../config/validate.ts';
import type { GeneratorCapacity } from '../../../load/ceiling.ts';
import type { Logger } from '../../../util/log.ts';
import type { ClusterAccess } from '../access.ts';
import { ownerLabels } from '../ownership.ts';
import { K6OperatorRunner } from './runner.ts';

export interface OperatorRunnerInput {
  access: ClusterAccess;
  config: Config;
  runId: string;
  log: Logger;
  readyTimeoutMs: number;
  /** The namespace a mode's client pod runs in (the mode's, or the ingress namespace). */
  namespaceOf(mode: string | undefined): string;
  /** The mode's own namespace, where the echo pods its runners must keep off run. */
  echoNamespaceOf(mode: string | undefined): string;
  version(): Promise<string>;
  /** The client image's pacer (InClusterK6Runner.pacer): the runners run the same image. */
  pacer?(): Promise<{ version: string | undefined; where: string }>;
  /** Where runners can go (the nodes), for load.generators: auto. */
  capacity?: GeneratorCapacity;
}

export function operatorRunner(input: OperatorRunnerInput): K6OperatorRunner {
  const k8s = input.config.kubernetes;
  const client = k8s.resources.client;
  return new K6OperatorRunner({
    access: input.access,
    readyTimeoutMs: input.readyTimeoutMs,
    log: input.log,
    version: input.version,
    ...(input.pacer ? { pacer: input.pacer } : {}),
    ...(input.capacity ? { capacity: () => input.capacity! } : {}),
    placementFor: (mode) => ({
      namespace: input.namespaceOf(mode),
      echoNamespace: input.echoNamespaceOf(mode),
      mode: mode ?? input.config.modes[0]!.name,
      image: k8s.images.client,
      ...(k8s.images.registry ? { registry: k8s.images.registry } : {}),
      resources: { requests: { cpu: client.cpu, memory: client.memory }, limits: { cpu: client.cpuLimit, memory: client.memoryLimit } },
      ownerLabels: ownerLabels(input.config.suite, input.runId),
    }),
  });
}
