// How long the steps around the load take: what `mesh-perf plan` adds to the load to estimate a
// whole job (a cluster created, meshes installed, each mode's workloads, the cluster deleted).
// One table of figures, each with where it was measured, so that a new measurement replaces one
// row; docs/cli.md ("What a whole job takes") lists them. They are this project's 2-core VM's:
// a 4-vCPU GitHub runner is likely faster, a busy one slower. Pure.

export interface StepTime {
  seconds: number;
  /** Where the figure comes from. */
  source: string;
}

export const STEP_TIMES = {
  /** `kind create cluster` of the product's cluster (a control plane and two workers), node image cached. */
  kindCreate: {
    seconds: 45,
    source:
      "the kind tier's runs of kind v0.31.0 on the 2-core VM (docs/kubernetes.md, 2026-12-06, load average 1-6): kind create of a control plane and two workers 35 s (control plane 15 s, joins 8 s), the nodes Ready 7-10 s after",
  },
  /** `kind delete cluster`. */
  kindDelete: {
    seconds: 5,
    source: "the kind tier's mesh-perf down of the 3-node cluster: 5.1 s (docs/kubernetes.md, 2026-12-06)",
  },
  /** Istio's control plane and node agents installed and ready (each revision one more). */
  istioInstall: {
    seconds: 25,
    source:
      "the kind tier's mesh-perf up of baseline, istio-ambient and linkerd (docs/kubernetes.md, 2026-12-06): istioctl install of istiod, istio-cni and ztunnel, ready in about 23 s",
  },
  /** Linkerd's CRDs, control plane and proxy injector installed and ready. */
  linkerdInstall: {
    seconds: 55,
    source: 'the same runs: linkerd install of its CRDs and control plane (destination, identity, proxy-injector), ready in about 53 s',
  },
  /** One mode's namespace, echo and client pods up and ready, and removed at the end. */
  modeWorkloads: {
    seconds: 5,
    source:
      "the real-node tier's run of baseline, istio-ambient and linkerd, 280 s with 3 × 65 s of load (docs/kubernetes.md, 2026-11-28): 5 s per mode of its 85 s outside the load (the split between meshes and modes is an assumption)",
  },
  /** platform local: one mode's echo server and proxy hops started (and stopped). */
  localMode: {
    seconds: 0.4,
    source:
      'three runs of two local modes on this 2-core VM (2026-12-06, load average ~15): 0.40 to 0.74 s from "Preparing platform" to the first trial, taken as 0.4 s per mode',
  },
} as const satisfies Record<string, StepTime>;

export type StepName = keyof typeof STEP_TIMES;

export interface JobStep {
  step: StepName;
  /** What the plan prints: "create the kind cluster", "install Istio (2 revisions)". */
  label: string;
  /** How many times it runs. */
  count: number;
  seconds: number;
}

export interface JobShape {
  platform: 'local' | 'endpoints' | 'kind' | 'kubeconfig';
  /** Meshes installed, each with how many control planes (Istio revisions: one each). */
  meshes: { name: 'Istio' | 'Linkerd'; installs: number }[];
  modes: number;
}

/** The steps of a job before and after its load, in order, with their estimated seconds. */
export function jobSteps(shape: JobShape): { before: JobStep[]; after: JobStep[] } {
  const step = (name: StepName, label: string, count = 1): JobStep => ({
    step: name,
    label,
    count,
    seconds: STEP_TIMES[name].seconds * count,
  });
  if (shape.platform === 'local') return { before: [step('localMode', `start ${plural(shape.modes, 'mode')}`, shape.modes)], after: [] };
  if (shape.platform === 'endpoints') return { before: [], after: [] };
  const meshes = shape.meshes
    .filter((m) => m.installs > 0)
    .map((m) =>
      step(
        m.name === 'Linkerd' ? 'linkerdInstall' : 'istioInstall',
        `install ${m.name}${m.installs > 1 ? ` (${m.installs} control planes)` : ''}`,
        m.installs,
      ),
    );
  const workloads = step('modeWorkloads', `workloads of ${plural(shape.modes, 'mode')}`, shape.modes);
  if (shape.platform === 'kubeconfig') return { before: [...meshes, workloads], after: [] };
  return {
    before: [step('kindCreate', 'create the kind cluster'), ...meshes, workloads],
    after: [step('kindDelete', 'delete the cluster')],
  };
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
