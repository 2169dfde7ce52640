// The product against the real node, unchanged: `node dist/cli.js run` inside the node's network
// namespace (the only place the API server is reachable), with the node's kubeconfig, the local
// image names (kubernetes.images.registry) and the k8s tier's istioctl. What only this node cannot
// run is refused here, before anything starts, with why (exit 2): the modes whose proxy is Envoy.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../../src/config/load.ts';
import { meshOf } from '../../../src/config/schema.ts';
import { UsageError } from '../../../src/util/errors.ts';
import { componentPath } from './components.ts';
import { imageRefs } from './images.ts';
import { LOCAL_REGISTRY, paths } from './layout.ts';

const CLI = fileURLToPath(new URL('../../../dist/cli.js', import.meta.url));

/** Modes this node runs for real; the rest need Envoy (Istio's proxyv2), which cannot be built here. */
export const REAL_MODES = ['baseline', 'istio-ambient'] as const;
const ENVOY = "Envoy (Istio's proxyv2 image), which cannot be built on this machine";
const WHY: Record<string, string> = {
  'istio-sidecar': `its sidecar proxy is ${ENVOY}`,
  'istio-waypoint': `its waypoint proxy is ${ENVOY}`,
  linkerd: 'the Linkerd images are not made by this harness yet (their binaries are in MESH_PERF_REAL_BIN; see docs/kubernetes.md)',
};

/** The settings a config needs to run on the node (a test merges its modes and load into them). */
export function nodeSettings(): Record<string, unknown> {
  return {
    platform: 'kubeconfig',
    kubernetes: {
      kubeconfig: paths.kubeconfig(),
      images: { registry: LOCAL_REGISTRY, echo: imageRefs.echo(), client: imageRefs.client() },
    },
  };
}

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

/** `mesh-perf <args>` inside the node's network namespace; output streamed to onLine as it comes. */
export function runProduct(init: number, args: string[], onLine: (line: string) => void = () => {}): Promise<ProductRun> {
  const child = spawn('nsenter', ['--target', String(init), '--net', '--', process.execPath, CLI, ...args], {
    env: { ...process.env, KUBECONFIG: paths.kubeconfig(), MESH_PERF_ISTIOCTL: componentPath('istioctl'), COLUMNS: '100' },
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
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}
