// The mesh-perf.yaml that `mesh-perf init` writes: a commented starting point per platform (or a
// preset), valid as written, so `plan` accepts it and, on the local platform, `run` runs it. Pure.
import { parseDurationMs } from '../config/duration.ts';
import type { PlatformName } from '../config/schema.ts';
import { DEFAULT_SAMPLE_INTERVAL } from '../config/sections/kubernetes.ts';
import { minimumCpuWindowMs } from '../plan/kubelet-refresh.ts';

export interface InitOptions {
  platform: PlatformName;
  preset?: string;
  /** Path of the JSON schema relative to the config file, for the editor comment. */
  schemaPath: string;
  suite: string;
}

/**
 * The load section. On a cluster CPU per 1000 rps needs two kubelet refreshes inside a repetition
 * (plan/kubelet-refresh.ts): the starter measures that long, and its budget holds more than the
 * first look of such repetitions.
 */
function load(platform: PlatformName): string {
  const cluster = platform === 'kind' || platform === 'kubeconfig';
  const cpuSeconds = minimumCpuWindowMs(parseDurationMs(DEFAULT_SAMPLE_INTERVAL)!) / 1000;
  const duration = cluster
    ? commented(`  duration: ${cpuSeconds}s`, `measured time per repetition: ${cpuSeconds}s or more gives CPU per 1000 rps`)
    : commented('  duration: 10s', 'measured time per repetition (at least 1s)');
  const budget = cluster
    ? `plan:
  budget:
${commented('    maxDuration: 20m', 'most load time repetitions auto may spend (plan shows the job)')}
`
    : '';
  return `load:
${commented('  rate: 100', 'requests per second (open model); or model: closed + vus')}
${duration}
${commented(`  warmup: ${cluster ? '5s' : '2s'}`, 'load before measuring, excluded from results')}
${commented('  repetitions: auto', 'blocks of every mode, interleaved: auto measures until the gates decide')}
                          # (plan.budget); a number runs exactly that many
${budget}`;
}

// No thresholds by default: the built-in error gate (load.maxErrorRate, 1%) already fails a mode
// whose requests fail; a threshold here would say it twice.
const GATES = `# gates:                  # the built-in error gate fails a mode above load.maxErrorRate (1%)
#   thresholds:           # fail the run when a mode breaks one
#     - p(99) < 250ms
#   overhead:             # budgets against the baseline mode
#     - overhead.p99 < 2ms
`;

const MODES: Record<PlatformName, string> = {
  local: `# local: mesh-perf starts an echo server per mode on 127.0.0.1, with forwarding proxy hops in
# front of it. Nothing to install; it measures what a proxy hop costs on this machine.
modes:
  - name: direct
    local: { hops: 0 }
  - name: one-proxy-hop
    local: { hops: 1 }
    # arms:                 # A/B: the change under test beside the mode as it is, in the same blocks
    #   head: { local: { hops: 2 } }
`,
  endpoints: `# endpoints: you run the services; mesh-perf sends load to each mode's URL.
modes:
  - name: baseline
    url: http://127.0.0.1:8080/     # replace with the service without the mesh
  - name: candidate
    url: http://127.0.0.1:8081/     # and the same service through the mesh
`,
  kind: `# kind: mesh-perf creates a kind cluster, installs each mesh and deploys the echo workload.
modes:
  - name: baseline                  # no mesh
  - name: istio-ambient             # mesh kinds: istio-sidecar, istio-ambient, istio-waypoint, linkerd
`,
  kubeconfig: `# kubeconfig: an existing cluster (kubernetes.kubeconfig or KUBECONFIG); mesh-perf installs
# each mesh and deploys the echo workload into namespaces it labels and removes afterwards.
modes:
  - name: baseline                  # no mesh
  - name: istio-ambient             # mesh kinds: istio-sidecar, istio-ambient, istio-waypoint, linkerd
`,
};

export function renderInitConfig(options: InitOptions): string {
  const head = `# yaml-language-server: $schema=${options.schemaPath}
# mesh-perf configuration. Check it with \`mesh-perf plan\`, run it with \`mesh-perf run\`.
# Every key: ${options.schemaPath}
${commented(`suite: ${options.suite}`, 'groups results in history')}
`;
  if (options.preset) {
    return `${head}${commented(`preset: ${options.preset}`, 'its modes and load; `mesh-perf presets` lists them')}
platform: ${options.platform}
# Anything below replaces the preset's value, e.g.:
# load:
#   repetitions: 5
`;
  }
  return `${head}${commented(`platform: ${options.platform}`, 'local | endpoints | kind | kubeconfig')}
${MODES[options.platform]}${commented(`baseline: ${options.platform === 'local' ? 'direct' : 'baseline'}`, 'overheads are computed against this mode')}
${load(options.platform)}${GATES}`;
}

/** A line with its comment in the column the other comments use. */
function commented(line: string, comment: string): string {
  return `${line.padEnd(25)} # ${comment}`;
}
