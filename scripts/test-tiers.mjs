// Which tier each test file belongs to, and which tools a tier needs (scripts/test.mjs runs them).
// A new test file is a unit test unless listed here: unit tests need no external tool and the
// whole tier stays under a minute on a 2-core machine.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { missingComponents as missingKindComponents } from './kind/components.mjs';
import { executable, missingComponents } from './real/components.mjs';

export const TIERS = ['unit', 'e2e', 'k8s', 'real', 'kind', 'faults'];

/**
 * Tiers `npm test` leaves out unless named (`--tier faults`, `npm run test:faults`, or a path
 * filter): the real node's fault tier (test/real/faults.test.ts, issue 51) breaks real components
 * under load for 9-10 minutes a run. It passed five runs in a row on a quiet machine (2026-12-07,
 * docs/reliability.md), but the whole suite already runs past its 40-minute target on a warm
 * 2-core machine, so it is run before a release and after a change to the Kubernetes platform's
 * disruption, outage or teardown code rather than at every landing.
 */
export const OPT_IN_TIERS = ['faults'];

/**
 * Files that need the local control plane (kube-apiserver + kwok), with their tests' time in a run
 * of the tier alone (2026-11-29, seven at once: 318 s for the tier, 461 s of CPU; a file's own
 * control plane starts in about 10 s more). Each file starts its own control plane on random
 * ports, and they mostly wait (istioctl's and the rollouts' waits, readiness timeouts some tests
 * run out on purpose), so scripts/test.mjs runs K8S_SLOTS of them at once, longest first. Until
 * kwok's watches worked (WatchList in test/support/k8s/cluster.ts) every pod and namespace waited
 * for kwok to relist and these files took three times as long (4,199 s in all in a CI run of
 * 2026-11-28, 678 s for the tier). A new file gets its measured time here (a file not listed
 * counts as 60 s).
 */
const K8S_SECONDS = {
  'test/kubernetes/ingress.test.ts': 221,
  'test/kubernetes/arms.test.ts': 174,
  'test/kubernetes/istio-revisions.test.ts': 159,
  'test/kubernetes/up-down.test.ts': 150,
  'test/kubernetes/mesh-paths.test.ts': 134,
  'test/kubernetes/generators.test.ts': 117,
  'test/kubernetes/run-results.test.ts': 88,
  'test/kubernetes/k6-operator.test.ts': 84,
  'test/kubernetes/mesh-paths-operator.test.ts': 70,
  'test/kubernetes/resource-window.test.ts': 56,
  'test/kubernetes/control-plane.test.ts': 44,
  'test/kubernetes/k6-operator-spread.test.ts': 43,
  'test/kubernetes/scaling.test.ts': 37,
  'test/kubernetes/disruptions.test.ts': 40,
  'test/kubernetes/k6-operator-refusals.test.ts': 20,
  'test/kubernetes/single-node.test.ts': 20,
  'test/kubernetes/unreachable.test.ts': 18,
  'test/kubernetes/linkerd-detect.test.ts': 6,
};
const K8S = Object.keys(K8S_SECONDS);

/**
 * How many k8s files run at once (see K8S_SECONDS). Their loads are 10 to 40 rps and they mostly
 * wait, so they share well: in lanes of five the k8s phase took 860 s in a CI run of 2026-11-28,
 * with the longest file 576 s; seven at once, each taking the next file as one ends, brought the
 * phase near its longest file. Five since 2026-11-29: on a machine whose cores are 1.5 times
 * slower (the unit tier 66 s of CPU against 42 s), seven beside e2e-parallel held load 16 to 21,
 * and three tests failed on timing alone (two groups' k6 started 263 ms apart, past the product's
 * 250 ms; 4 iterations dropped at 20 rps). The k8s files took 411 s there beside e2e-parallel's
 * 700 s, which bounds the phase; five slots, longest first, pack this run's files into ~490 s.
 */
export const K8S_SLOTS = 5;

/** How far apart the slots start (scripts/test.mjs says why); the last slot's queue is the shortest. */
export const K8S_SLOT_STAGGER_MS = 8_000;

/**
 * The k8s files in the order scripts/test.mjs starts them: longest first, so that the short ones
 * fill in as the long ones end and the slots end together. (One `node --test` with a concurrency
 * starts them in the order of their names, the longest last; fixed lanes planned from estimates
 * end late when one estimate is off.)
 */
export function k8sQueue(files) {
  const seconds = (f) => K8S_SECONDS[f.split('\\').join('/')] ?? 60;
  return [...files].sort((a, b) => seconds(b) - seconds(a));
}

/**
 * Files that run real k6, Fortio, vegeta, actionlint, git, Chromium, the CLI or the bundled
 * action as a process; and the verdict engine's statistical acceptance (thousands of simulated
 * histories, about a minute of CPU).
 */
const E2E = [
  'test/analysis/ab-acceptance.test.ts',
  'test/analysis/acceptance.test.ts',
  'test/analysis/calibrate-command.test.ts',
  'test/build/dist-fresh.test.ts',
  'test/build/release.test.ts',
  'test/cli/generated-bad-input.test.ts',
  'test/cli/hostile-input-e2e.test.ts',
  'test/cli/init.test.ts',
  'test/cli/run-errors-once.test.ts',
  'test/cli/run-flags.test.ts',
  'test/cli/run-publish.test.ts',
  'test/cli/signals-and-scale.test.ts',
  'test/cli/unreachable-store.test.ts',
  'test/github/action-entry.test.ts',
  'test/github/comment-mode.test.ts',
  'test/github/local-demo-modes.test.ts',
  'test/github/post.test.ts',
  'test/github/publish-mode.test.ts',
  'test/github/setup-mode.test.ts',
  'test/history/commit-identity.test.ts',
  'test/history/change-points-dashboard.test.ts',
  'test/history/confirmations.test.ts',
  'test/history/concurrent-publish.test.ts',
  'test/history/git-credentials.test.ts',
  'test/history/git-store.test.ts',
  'test/history/git-session.test.ts',
  'test/history/dashboard-months.test.ts',
  'test/history/layout-conversion.test.ts',
  'test/history/publish-faults.test.ts',
  'test/history/run-page.test.ts',
  'test/integration/ab-arms.test.ts',
  'test/integration/cli-errors.test.ts',
  'test/integration/confirm.test.ts',
  'test/integration/demo.test.ts',
  'test/integration/endpoints.test.ts',
  'test/integration/failed-requests.test.ts',
  'test/integration/grpc.test.ts',
  'test/integration/inconclusive.test.ts',
  'test/integration/secrets.test.ts',
  'test/integration/user-script.test.ts',
  'test/load/generators-e2e.test.ts',
  'test/kubernetes/k6-operator-wrapper.test.ts',
  'test/load/iteration-tls.test.ts',
  'test/load/pacer-e2e.test.ts',
  'test/load/pacer-go.test.ts',
  'test/load/summary-complete.test.ts',
  'test/load/vu-options.test.ts',
  'test/load/window.test.ts',
  'test/plan/cpu-window.test.ts',
  'test/presets/local-e2e.test.ts',
  'test/report-formats/vegeta-crosscheck.test.ts',
  'test/report/ab-browser.test.ts',
  'test/report/browser.test.ts',
  'test/report/dashboard-order.test.ts',
  'test/report/narrow-viewport.test.ts',
  'test/report/report-command.test.ts',
  'test/report/whiskers.test.ts',
  'test/workflows/act-confirm.test.ts',
  'test/workflows/act-examples.test.ts',
  'test/workflows/act-release.test.ts',
  'test/workflows/act-reusable.test.ts',
  'test/workflows/workflows.test.ts',
];

/**
 * The e2e files that drive real load (k6, Fortio or vegeta against servers on 127.0.0.1, or act
 * running workflows that do): their rates and latencies assume the machine to themselves, so they
 * run one at a time. Every other e2e file runs two at a time. A new e2e file that drives load
 * belongs here. (test/github/action-entry.test.ts drives 20 rps for 2 s with a generous VU pool,
 * made for a shared machine: its comment tests need valid runs, not a measurement, so it runs
 * beside others.)
 */
const DRIVES_LOAD = [
  'test/analysis/calibrate-command.test.ts',
  // Real k6 in 1 s repetitions with exact exit codes: beside another file, a stalled second cut
  // one repetition to 91 % of its rate and made the 10 ms A/B run invalid (exit 3, not 1).
  'test/integration/ab-arms.test.ts',
  'test/cli/init.test.ts',
  'test/cli/run-errors-once.test.ts',
  'test/cli/run-flags.test.ts',
  'test/cli/run-publish.test.ts',
  'test/github/local-demo-modes.test.ts',
  'test/github/post.test.ts',
  'test/integration/cli-errors.test.ts',
  'test/integration/confirm.test.ts',
  'test/integration/demo.test.ts',
  'test/integration/endpoints.test.ts',
  'test/integration/failed-requests.test.ts',
  'test/integration/grpc.test.ts',
  'test/integration/inconclusive.test.ts',
  'test/integration/user-script.test.ts',
  'test/load/generators-e2e.test.ts',
  'test/kubernetes/k6-operator-wrapper.test.ts',
  'test/load/iteration-tls.test.ts',
  'test/load/pacer-e2e.test.ts',
  'test/load/summary-complete.test.ts',
  'test/load/vu-options.test.ts',
  'test/load/window.test.ts',
  'test/presets/local-e2e.test.ts',
  'test/report-formats/vegeta-crosscheck.test.ts',
  'test/workflows/act-confirm.test.ts',
  'test/workflows/act-examples.test.ts',
  'test/workflows/act-reusable.test.ts',
];

/** Whether an e2e file must have the machine to itself (see DRIVES_LOAD). */
export function drivesLoad(file) {
  return DRIVES_LOAD.includes(file.split('\\').join('/'));
}

export function tierOf(file) {
  const path = file.split('\\').join('/');
  if (path === 'test/real/faults.test.ts') return 'faults';
  if (path.startsWith('test/real/')) return 'real';
  if (path.startsWith('test/kind/')) return 'kind';
  if (K8S.includes(path)) return 'k8s';
  if (E2E.includes(path)) return 'e2e';
  return 'unit';
}

const root = join(import.meta.dirname, '..');
const cache = () =>
  join(process.env.MESH_PERF_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'mesh-perf'), 'tools');

/** The Go tools scripts/install-test-tools.sh builds, with the versions it pins. */
function goTools() {
  const rows = [
    ...readFileSync(join(root, 'scripts/install-test-tools.sh'), 'utf8').matchAll(/^\s*"([a-z0-9-]+)\|[^|]+\|([^"|]+)(?:\|[^"]*)?"/gm),
  ];
  const tools = rows.map(([, name, version]) => ({
    name,
    path: join(cache(), name, version, name),
    how: `run \`bash scripts/install-test-tools.sh ${name}\` (builds it once from the Go module proxy)`,
  }));
  // k6 with mesh-perf's pacer, built from k6ext/: the product's k6 (src/tools/k6-pacer.ts).
  const pacer = /^PACER_K6_VERSION="([^"]+)"/m.exec(readFileSync(join(root, 'scripts/install-test-tools.sh'), 'utf8'))?.[1];
  if (pacer)
    tools.push({
      name: 'k6-pacer',
      path: join(cache(), 'k6-pacer', pacer, 'k6'),
      how: '`bash scripts/install-test-tools.sh k6-pacer` (builds it once from k6ext/)',
    });
  return tools;
}

/** The control-plane binaries scripts/k8s/build.sh builds (versions in scripts/k8s/versions.sh). */
function controlPlane() {
  const versions = Object.fromEntries(
    [...readFileSync(join(root, 'scripts/k8s/versions.sh'), 'utf8').matchAll(/^([A-Z_]+)=([^\s$"]+)\s*$/gm)].map(([, k, v]) => [k, v]),
  );
  const built = (name, version) => ({
    name,
    path: join(cache(), name, version, name),
    how: `run \`bash scripts/k8s/build.sh ${name}\` (builds and caches it once)`,
  });
  const k8s = versions.KUBERNETES_VERSION;
  return [
    {
      name: 'etcd',
      path: process.env.MESH_PERF_ETCD ?? '/usr/bin/etcd',
      how: 'run `bash scripts/k8s/build.sh etcd` or set MESH_PERF_ETCD',
    },
    built('kube-apiserver', k8s),
    built('kube-controller-manager', k8s),
    built('kube-scheduler', k8s),
    built('kwok', versions.KWOK_VERSION),
    built('istioctl', versions.ISTIO_VERSION),
  ];
}

const chromium = () => ({
  name: 'chromium',
  path: process.env.MESH_PERF_CHROMIUM ?? '/usr/bin/chromium',
  how: 'run `bash scripts/install-browser.sh` (Debian package) or set MESH_PERF_CHROMIUM',
});

/** Files that drive Chromium (the only e2e files that need it). */
const BROWSER = [
  'test/history/change-points-dashboard.test.ts',
  'test/report/ab-browser.test.ts',
  'test/report/browser.test.ts',
  'test/report/dashboard-order.test.ts',
  'test/report/narrow-viewport.test.ts',
  'test/report/whiskers.test.ts',
  'test/history/dashboard-months.test.ts',
  'test/history/layout-conversion.test.ts',
  'test/history/run-page.test.ts',
];

/**
 * The real-node tier (test/real/: a real kubelet, containerd and Istio ambient's data plane in
 * network namespaces of their own, scripts/real/) runs when its components are cached and skips
 * otherwise, on CI too: building them takes ~20 minutes on 2 cores, which a fresh CI machine must
 * not spend. It needs root (namespaces, mounts, iptables). One line says why it skipped.
 */
export function realTierSkip() {
  if (process.getuid?.() !== 0) return 'it needs root (network, mount and PID namespaces, iptables)';
  const missing = missingComponents();
  if (missing.length === 0) return undefined;
  // Binaries only git snapshots give: a directory of NAME.xz, and a git directory of linkerd2.
  const from = [
    ...(missing.some((c) => c.how.includes('MESH_PERF_REAL_BIN')) ? ['MESH_PERF_REAL_BIN=<directory of ztunnel.xz and linkerd*.xz>'] : []),
    ...(missing.some((c) => c.how.includes('MESH_PERF_LINKERD2_GIT')) ? ['MESH_PERF_LINKERD2_GIT=<git directory of linkerd2>'] : []),
  ];
  return `${missing.length} components are not built (${missing.map((c) => c.name).join(', ')}): build them once with \`bash scripts/k8s/build.sh && bash scripts/install-test-tools.sh && bash scripts/real/build.sh\`${from.length > 0 ? ` with ${from.join(' ')}` : ''} (~20 min on 2 cores)`;
}

/**
 * The kind tier (test/kind/: kind v0.31.0 creating real clusters with Debian's dockerd in
 * namespaces of its own, scripts/kind/) runs, like the real tier, when its components are cached
 * (about an hour of builds on 2 cores, on top of the real tier's) and skips otherwise, on CI too.
 */
export function kindTierSkip() {
  if (process.getuid?.() !== 0) return 'it needs root (network, mount and PID namespaces, a Docker daemon)';
  const missing = missingKindComponents();
  if (missing.length === 0) return undefined;
  const own = missing.filter((c) => c.how.includes('scripts/kind/'));
  const theirs = missing.filter((c) => !c.how.includes('scripts/kind/'));
  return `${missing.length} components are not built (${missing.map((c) => c.name).join(', ')}): build them once with ${[
    ...(theirs.length > 0 ? ["the real tier's (see its line)"] : []),
    ...(own.length > 0
      ? [
          `\`bash scripts/kind/build.sh\`${own.some((c) => c.how.includes('MESH_PERF_KIND_GIT')) ? ' with MESH_PERF_KIND_GIT=<git directory of kubernetes-sigs/kind>' : ''}`,
        ]
      : []),
  ].join(' and ')} (~60 min on 2 cores)`;
}

/** The tools a test file needs that are not installed, each with how to get it. */
export function missingToolsFor(file) {
  const path = file.split('\\').join('/');
  const tier = tierOf(path);
  if (tier === 'real' || tier === 'kind' || tier === 'faults') return [];
  const needed =
    tier === 'k8s'
      ? [...goTools().filter((t) => t.name === 'k6' || t.name === 'k6-pacer'), ...controlPlane()]
      : tier === 'e2e'
        ? [...goTools(), ...(BROWSER.includes(path) ? [chromium()] : [])]
        : [];
  return needed.filter((tool) => !executable(tool.path));
}
