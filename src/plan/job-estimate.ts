// A whole job's time, estimated before it runs: the steps around the load on the config's platform
// (plan/step-times.ts: a cluster created, meshes installed, each mode's workloads, the cluster
// deleted) and the load itself, from the first look to the most load.repetitions auto may add.
// What `mesh-perf plan` prints so a user can budget runner minutes. Pure.
import { meshOf } from '../config/schema.ts';
import type { Config } from '../config/validate.ts';
import { type JobShape, type JobStep, jobSteps } from './step-times.ts';

export interface JobEstimate {
  platform: Config['platform'];
  before: JobStep[];
  after: JobStep[];
  /** Load (with scaling steps), at the first look and at the most the budget allows. */
  load: { first: number; max: number };
  /** The whole job: steps and load. */
  seconds: { first: number; max: number };
}

/** What a config's job installs and deploys. An `existing` mesh is the user's: nothing to install. */
export function jobShape(config: Config): JobShape {
  const kinds = new Set(config.modes.map((m) => meshOf(m)));
  const istio = [...kinds].some((k) => k === 'istio-sidecar' || k === 'istio-ambient' || k === 'istio-waypoint');
  // A mode with its own `istio` runs under a control plane of its own beside the run's.
  const revisions = config.modes.filter((m) => m.istio).length;
  const meshes = [
    ...(istio || revisions > 0 ? [{ name: 'Istio' as const, installs: 1 + revisions }] : []),
    ...(kinds.has('linkerd') ? [{ name: 'Linkerd' as const, installs: 1 }] : []),
  ];
  return { platform: config.platform, meshes, modes: config.modes.length };
}

export function jobEstimate(config: Config, load: { first: number; max: number }): JobEstimate {
  const { before, after } = jobSteps(jobShape(config));
  const steps = [...before, ...after].reduce((sum, s) => sum + s.seconds, 0);
  return { platform: config.platform, before, after, load, seconds: { first: steps + load.first, max: steps + load.max } };
}
