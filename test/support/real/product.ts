// The product against the real node, unchanged: `node dist/cli.js run` inside the node's network
// namespace (the only place the API server is reachable), with the node's kubeconfig, the local
// image names (kubernetes.images.registry), the k8s tier's istioctl and the cached Linkerd CLI
// (MESH_PERF_ISTIOCTL, MESH_PERF_LINKERD: the product's own override of its pinned downloads). What
// only this node cannot run is refused here, before anything starts, with why (exit 2): the modes
// whose proxy is Envoy.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../../src/config/load.ts';
import { meshOf } from '../../../src/config/schema.ts';
import { UsageError } from '../../../src/util/errors.ts';
import { componentPath } from './components.ts';
import { imageRefs, linkerdVersion } from './images.ts';
import { BENCHMARK_RANGE, LOCAL_REGISTRY, paths } from './layout.ts';

const CLI = fileURLToPath(new URL('../../../dist/cli.js', import.meta.url));

/** Modes this node runs for real; the rest need Envoy (Istio's proxyv2), which cannot be built here. */
export const REAL_MODES = ['baseline', 'istio-ambient', 'linkerd'] as const;
const ENVOY = "Envoy (Istio's proxyv2 image), which cannot be built on this machine";
const WHY: Record<string, string> = {
  'istio-sidecar': `its sidecar proxy is ${ENVOY}`,
  'istio-waypoint': `its waypoint proxy is ${ENVOY}`,
};

/** The settings a config needs to run on the node (a test merges its modes and load into them). */
export function nodeSettings(): Record<string, unknown> {
  return {
    platform: 'kubeconfig',
    kubernetes: {
      kubeconfig: paths.kubeconfig(),
      images: { registry: LOCAL_REGISTRY, echo: imageRefs.echo(), client: imageRefs.client() },
      // The Linkerd the node's images are (the cached CLI's version, not the product's pinned
      // release): the config and results say which ran. Its clusterNetworks (which destinations
      // its proxies resolve and secure as in-cluster) default to the private ranges: the node's
      // pods and Services are in the benchmarking range.
      linkerd: { version: linkerdVersion(), set: { clusterNetworks: BENCHMARK_RANGE } },
    },
  };
}

/**
 * The A/B of two Linkerd proxy settings (namespace annotations through the arms): base skips the
 * client's proxy for the echo port (`config.linkerd.io/skip-outbound-ports: "8080"`: proxy-init
 * leaves that port out of the client pod's outbound redirect, so k6's requests reach the echo pod's
 * proxy in plaintext, one proxy on the path); head is Linkerd's default skip list ("4567,4568",
 * proxyInit.ignoreOutboundPorts), so every request crosses the client's proxy too, under mutual TLS
 * between the two: a second proxy hop and a TLS session on every request's path. The A/B gate must
 * find head slower, conclusively, within the budget (test/real/real-node.test.ts; bench/real-meshes
 * measures the same arms with plain k6 beside it).
 */
export const LINKERD_AB_ARMS = {
  base: { namespaceAnnotations: { 'config.linkerd.io/skip-outbound-ports': '8080' } },
  head: { namespaceAnnotations: { 'config.linkerd.io/skip-outbound-ports': '4567,4568' } },
};

/** Refuses, with why, what the real node cannot run: modes whose proxy is Envoy, the ingress gateway, kind. */
export async function refuseUnsupported(configFile: string): Promise<void> {
  const config = await loadConfig({ file: configFile });
  const problems: string[] = [];
  if (config.platform !== 'kubeconfig')
    problems.push(`platform: ${config.platform} (the real node is a kubeconfig cluster: platform kubeconfig)`);
  config.modes.forEach((mode, index) => {
    const mesh = meshOf(mode) ?? 'baseline';
    if (WHY[mesh]) problems.push(`modes[${index}] ${mode.name} (${mesh}): ${WHY[mesh]}`);
  });
  if (config.kubernetes.ingress) problems.push(`kubernetes.ingress: Istio's ingress gateway is ${ENVOY}`);
  if (problems.length > 0)
    throw new UsageError(
      `${configFile}: the real node cannot run this:\n  ${problems.join('\n  ')}\nModes that run on it: ${REAL_MODES.join(', ')}; the others run on GitHub's kind jobs (docs/kubernetes.md).`,
    );
}

export interface ProductRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The product's environment on the node: its kubeconfig and the cached mesh CLIs (the pinned downloads' override). */
export function productEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return {
    ...env,
    KUBECONFIG: paths.kubeconfig(),
    MESH_PERF_ISTIOCTL: componentPath('istioctl'),
    MESH_PERF_LINKERD: componentPath('linkerd-cli'),
    COLUMNS: '100',
  };
}

/**
 * `mesh-perf <args>` inside a network namespace (the node's, or the kind host's with its own
 * environment); output streamed to onLine as it comes.
 */
export function runProduct(
  init: number,
  args: string[],
  onLine: (line: string) => void = () => {},
  env: NodeJS.ProcessEnv = productEnv(),
): Promise<ProductRun> {
  return startProduct(init, args, onLine, env).done;
}

/**
 * runProduct with the process at hand, for the fault tier to signal: nsenter without a PID
 * namespace execs the CLI itself, so `child` is mesh-perf.
 */
export function startProduct(
  init: number,
  args: string[],
  onLine: (line: string) => void = () => {},
  env: NodeJS.ProcessEnv = productEnv(),
): { child: import('node:child_process').ChildProcess; done: Promise<ProductRun> } {
  // nsenter by its path: a test may give the product a PATH without /usr/bin (no Docker there).
  const child = spawn('/usr/bin/nsenter', ['--target', String(init), '--net', '--', process.execPath, CLI, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const lines = (chunk: Buffer, sink: (text: string) => void) => {
    const text = chunk.toString('utf8');
    sink(text);
    for (const line of text.split('\n')) if (line.trim()) onLine(line);
  };
  child.stdout.on('data', (c: Buffer) => lines(c, (t) => (stdout += t)));
  child.stderr.on('data', (c: Buffer) => lines(c, (t) => (stderr += t)));
  const done = new Promise<ProductRun>((resolve, reject) => {
    child.on('error', reject);
    // Killed by a signal: 128 + its number, as a shell reports it.
    child.on('close', (code, signal) => resolve({ code: code ?? 128 + (signal ? constants.signals[signal] : 1), stdout, stderr }));
  });
  return { child, done };
}
