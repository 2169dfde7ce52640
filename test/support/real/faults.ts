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

  /**
   * The first line (from now on, or already seen) matching `pattern`; rejects after `timeoutMs`.
   * The timer does not hold the process: a wait that lost its race (the run ended first) left the
   * tier's process running for its 15 minutes after the last test.
   */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<string> {
    const seen = this.lines.find((l) => pattern.test(l));
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w.pattern !== pattern);
        reject(new FaultNotInjected(`the product never printed a line matching ${pattern} within ${timeoutMs / 1000} s`));
      }, timeoutMs);
      timer.unref();
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

/** A running container's main process, found through the node's CRI (crictl ps → its id → crictl inspect → its pid in the node's PID namespace). */
async function containerProcess(
  node: NodeContext,
  namespace: string,
  selector: string,
  container: string,
): Promise<{ pod: string; id: string; pid: number }> {
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
  return { pod, id, pid };
}

/** Kills a container's main process with SIGKILL, found through the node's CRI by pod and container name; the kubelet restarts it. */
export async function killContainer(node: NodeContext, namespace: string, selector: string, container: string): Promise<Injected> {
  const { pod, id, pid } = await containerProcess(node, namespace, selector, container);
  const at = Date.now();
  const killed = await node.exec('kill', ['-s', 'KILL', String(pid)]);
  if (killed.code !== 0) throw new FaultNotInjected(`kill -s KILL ${pid}: ${killed.stderr.trim()}`);
  return {
    fault: 'process killed',
    at,
    detail: `SIGKILL to ${container} (pid ${pid} in the node, container ${id.slice(0, 12)}) of ${namespace}/${pod}`,
  };
}

/**
 * Runs a container out of memory under load, as a proxy that outgrows its limit does: its memory
 * cgroup (cgroup v1, this machine's) gets a limit just above what it holds, and a helper process
 * joins that cgroup, exempt from the OOM killer (oom_score_adj -1000), and fills it; the kernel's
 * OOM killer then has the container's own process to kill, containerd reports OOMKilled and the
 * kubelet restarts it in a new cgroup (the limit goes with the old one). The helper stops as soon
 * as the process is gone (or runc kills it with the container), within 20 s in any case; without a
 * kill the limit is taken off again and the row cannot be injected. (Not a signal: a container's
 * first process is the init of its PID namespace, and the kernel drops a signal sent from outside
 * that namespace unless the process handles it, SIGKILL and SIGSTOP aside; linkerd-proxy
 * "survived" SIGABRT and SIGSEGV for that.)
 */
export async function outOfMemory(node: NodeContext, namespace: string, selector: string, container: string): Promise<Injected> {
  const { pod, id, pid } = await containerProcess(node, namespace, selector, container);
  const cgroups = await node.exec('cat', [`/proc/${pid}/cgroup`]);
  const path = /^\d+:memory:(\S+)$/m.exec(cgroups.stdout)?.[1];
  if (!path) throw new FaultNotInjected(`${container} of ${namespace}/${pod} is in no v1 memory cgroup:\n${cgroups.stdout.trim()}`);
  const dir = `/sys/fs/cgroup/memory${path}`;
  const usage = Number((await node.exec('cat', [`${dir}/memory.usage_in_bytes`])).stdout.trim());
  if (!(usage > 0)) throw new FaultNotInjected(`no memory usage in ${dir}`);
  const setLimit = (bytes: number) => node.exec('/bin/sh', ['-c', 'echo "$0" > "$1"', String(bytes), `${dir}/memory.limit_in_bytes`]);
  const limit = usage + (4 << 20);
  if ((await setLimit(limit)).code !== 0) throw new FaultNotInjected(`the kernel refused a memory limit of ${limit} bytes in ${dir}`);
  const at = Date.now();
  const helper = await node.exec('python3', ['-c', FILL_CGROUP, `${dir}/cgroup.procs`, String(pid)], { timeoutMs: 30_000 });
  // The helper either saw the process go, or went with it: runc kills every process left in a
  // container's cgroup once its first one has died (the helper is one of them).
  const killed = helper.stdout.includes('gone') || (await node.exec('test', ['-e', `/proc/${pid}`])).code !== 0;
  if ((await node.exec('test', ['-d', dir])).code === 0) await setLimit(-1);
  if (!killed)
    throw new FaultNotInjected(
      `${container} of ${namespace}/${pod} was not OOM-killed with its cgroup filled to a limit of ${limit} bytes (exit ${helper.code}: ${(helper.stdout + helper.stderr).trim()}): limit taken off`,
    );
  return {
    fault: 'out of memory',
    at,
    detail: `${container} of ${namespace}/${pod} (container ${id.slice(0, 12)}, pid ${pid}) OOM-killed: its memory cgroup filled to a limit of ${limit} bytes`,
  };
}

/** The helper of outOfMemory: joins the cgroup, unkillable by the OOM killer, and fills it until the target is gone (20 s at most). */
const FILL_CGROUP = `
import os, sys, time
procs, target = sys.argv[1], sys.argv[2]
open('/proc/self/oom_score_adj', 'w').write('-1000')
open(procs, 'w').write(str(os.getpid()))
held, deadline = [], time.time() + 20
while time.time() < deadline:
    if not os.path.exists('/proc/' + target):
        print('gone')
        break
    if len(held) < 256:
        held.append(b'\\x01' * (256 << 10))
    else:
        time.sleep(0.05)
`;

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
