// Faults the real-node fault tier injects into real components while the product measures
// (test/real/faults.test.ts): a pod deleted or evicted through the API server, a container's
// process killed (found by its container id through the node's CRI, never by name), the API
// server stopped and started again, the product itself signalled. Each injector says what it did;
// one that could not inject throws FaultNotInjected, and the test skips that row saying so.
import { setTimeout as sleep } from 'node:timers/promises';
import { apiServer } from './actions/control-plane.ts';
import { SOCKET } from './actions/containerd.ts';
import { kubectl } from './actions/kubelet.ts';
import { componentPath } from './components.ts';
import { paths } from './layout.ts';
import type { NodeContext } from './node.ts';

export class FaultNotInjected extends Error {}

/** What an injector did, when, for the test's messages and the docs table. */
export interface Injected {
  fault: string;
  /** ms since the epoch */
  at: number;
  detail: string;
}

/**
 * The product's output, line by line as it comes, with a way to wait for a line: the harness
 * injects when the product says the repetition it targets is under load.
 */
export class ProductLines {
  readonly lines: string[] = [];
  private waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];

  push = (line: string): void => {
    this.lines.push(line);
    for (const waiter of [...this.waiters])
      if (waiter.pattern.test(line)) {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        waiter.resolve(line);
      }
  };

  /** The first line (from now on, or already seen) matching `pattern`; rejects after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<string> {
    const seen = this.lines.find((l) => pattern.test(l));
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w.pattern !== pattern);
        reject(new FaultNotInjected(`the product never printed a line matching ${pattern} within ${timeoutMs / 1000} s`));
      }, timeoutMs);
      this.waiters.push({
        pattern,
        resolve: (line) => {
          clearTimeout(timer);
          resolve(line);
        },
      });
    });
  }
}

/**
 * The product's live line for a repetition under way: "[3/9] istio-ambient · 100rps · rep 1/3 ·
 * warm-up · 1/12s". Its first comes with k6's first second (later ones at most every 5 s without a
 * TTY), so the harness counts from it.
 */
export function underLoad(mode: string, repetition: number): RegExp {
  return new RegExp(`\\[\\d+/\\d+\\] ${mode.replace(/[-.]/g, '\\$&')} · \\S+ · rep ${repetition}/\\d+ · (warm-up|measuring)`);
}

/** Running pods a selector picks, not already terminating. */
async function podNames(node: NodeContext, namespace: string, selector: string): Promise<string[]> {
  const out = JSON.parse(await kubectl(node, ['get', 'pods', '-n', namespace, '-l', selector, '-o', 'json'])) as {
    items: { metadata: { name: string; deletionTimestamp?: string }; status?: { phase?: string } }[];
  };
  return out.items.filter((p) => !p.metadata.deletionTimestamp && p.status?.phase === 'Running').map((p) => p.metadata.name);
}

/** Deletes the pods a selector picks (the API's graceful delete, as `kubectl delete pod` does). */
export async function deletePods(node: NodeContext, namespace: string, selector: string): Promise<Injected> {
  const pods = await podNames(node, namespace, selector);
  if (pods.length === 0) throw new FaultNotInjected(`no pod ${selector} in ${namespace} to delete`);
  const at = Date.now();
  await kubectl(node, ['delete', 'pod', '-n', namespace, '--wait=false', ...pods]);
  return { fault: 'pod deleted', at, detail: `deleted ${pods.map((p) => `${namespace}/${p}`).join(', ')}` };
}

/** Evicts a pod through the Eviction API (what `kubectl drain` and the node's pressure handling use). */
export async function evictPod(node: NodeContext, namespace: string, selector: string): Promise<Injected> {
  const [pod] = await podNames(node, namespace, selector);
  if (!pod) throw new FaultNotInjected(`no pod ${selector} in ${namespace} to evict`);
  const eviction = JSON.stringify({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: pod, namespace } });
  const at = Date.now();
  const out = await node.exec(
    '/bin/sh',
    [
      '-c',
      `printf '%s' "$1" | "$0" --kubeconfig "$2" create --raw "/api/v1/namespaces/${namespace}/pods/${pod}/eviction" -f -`,
      componentPath('kubectl'),
      eviction,
      paths.kubeconfig(),
    ],
    { namespaces: ['net'] },
  );
  if (out.code !== 0) throw new FaultNotInjected(`evicting ${namespace}/${pod}: ${out.stderr.trim()}`);
  return { fault: 'pod evicted', at, detail: `evicted ${namespace}/${pod}` };
}

/**
 * Kills a container's main process with SIGKILL (or SIGABRT: an abort, what a crash looks like to the kubelet; Rust's
 * runtime catches a SIGSEGV sent by kill and goes on), found through the node's CRI by pod and container
 * name (crictl ps → the container id → crictl inspect → its pid in the node's PID namespace); the
 * kubelet restarts it.
 */
export async function killContainer(
  node: NodeContext,
  namespace: string,
  selector: string,
  container: string,
  signal: 'SIGKILL' | 'SIGABRT' = 'SIGKILL',
): Promise<Injected> {
  const [pod] = await podNames(node, namespace, selector);
  if (!pod) throw new FaultNotInjected(`no pod ${selector} in ${namespace}`);
  const crictl = (args: string[]) =>
    node.exec(componentPath('crictl'), ['--runtime-endpoint', `unix://${SOCKET}`, ...args], { timeoutMs: 20_000 });
  const ps = await crictl([
    'ps',
    '--state',
    'running',
    '--name',
    `^${container}$`,
    '--label',
    `io.kubernetes.pod.name=${pod}`,
    '--label',
    `io.kubernetes.pod.namespace=${namespace}`,
    '-q',
  ]);
  const id = ps.stdout.trim().split('\n').filter(Boolean)[0];
  if (ps.code !== 0 || !id) throw new FaultNotInjected(`no running container ${container} in ${namespace}/${pod}: ${ps.stderr.trim()}`);
  const inspect = await crictl(['inspect', '-o', 'go-template', '--template', '{{.info.pid}}', id]);
  const pid = Number(inspect.stdout.trim());
  if (!Number.isInteger(pid) || pid <= 1)
    throw new FaultNotInjected(`container ${id} of ${namespace}/${pod} has no pid (${inspect.stdout.trim()})`);
  if (signal !== 'SIGKILL') {
    // A container's first process is the init of its PID namespace: the kernel drops a signal sent
    // from outside that namespace unless the process handles it, SIGKILL and SIGSTOP aside. An
    // abort or a segfault sent by kill never reaches it (linkerd-proxy "survived" SIGSEGV and
    // SIGABRT here for that reason, not a handler of its own), so the crash needs a process of the
    // container that is not its init; without one the row cannot be injected and says so.
    const status = await node.exec('cat', [`/proc/${pid}/status`]);
    const nspid = /^NSpid:\s+(.*)$/m.exec(status.stdout)?.[1]?.trim().split(/\s+/) ?? [];
    if (nspid.at(-1) === '1')
      throw new FaultNotInjected(
        `${container} (pid ${pid} in the node) is its container's PID 1, which ignores ${signal} sent from outside its PID namespace (only SIGKILL and SIGSTOP reach it): a crash cannot be injected by a signal`,
      );
  }
  const at = Date.now();
  const killed = await node.exec('kill', ['-s', signal.slice(3), String(pid)]);
  if (killed.code !== 0) throw new FaultNotInjected(`kill -s ${signal.slice(3)} ${pid}: ${killed.stderr.trim()}`);
  return {
    fault: signal === 'SIGKILL' ? 'process killed' : 'process crashed',
    at,
    detail: `${signal} to ${container} (pid ${pid} in the node, container ${id.slice(0, 12)}) of ${namespace}/${pod}`,
  };
}

/**
 * The API server unreachable for about `ms`: stopped (SIGTERM, SIGKILL after 5 s, as the node's own
 * down does), then started again after `ms` and waited for until /readyz answers. Returns how long
 * it really did not answer.
 */
export async function apiServerOutage(node: NodeContext, ms: number): Promise<Injected & { seconds: number }> {
  const at = Date.now();
  await apiServer.down!(node);
  await sleep(Math.max(0, ms - (Date.now() - at)));
  await apiServer.up(node);
  const seconds = (Date.now() - at) / 1000;
  return {
    fault: 'API server unreachable',
    at,
    seconds,
    detail: `kube-apiserver stopped, started again after ${(ms / 1000).toFixed(0)} s; ready again after ${seconds.toFixed(1)} s`,
  };
}
