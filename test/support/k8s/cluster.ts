// A real Kubernetes control plane on 127.0.0.1 for tests: etcd, kube-apiserver,
// kube-controller-manager, kube-scheduler, and one kwok per fake node (kwok plays the kubelet:
// pod status, exec, resource metrics). Random free ports, a temp dir with its own PKI, and a
// guardian process that kills every child by pid if the test process dies without stopping.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'node:https';
import { freePortRun } from '../ports.ts';
import { kubeconfigYaml, makePki, type Pki } from './certs.ts';
import { k8sBinaries, localK6Dir } from './tools.ts';
import { kwokConfigYaml, type ContainerUsage } from './kwok-config.ts';
import { egressSelectorConfig, fakeNodeIp, startEgressProxy, type EgressProxy } from './egress-proxy.ts';

export interface LocalClusterOptions {
  /** Fake nodes (each run by its own kwok); 2 lets anti-affinity place client and server apart. */
  nodes?: number;
  /** Emulated usage by container name, plus `default`. */
  usage?: Record<string, ContainerUsage> & { default: ContainerUsage };
  /** Allocatable CPU per node, in order ("4" when not given): a node too small for a pod's request. */
  nodeCpu?: string[];
}

export interface LocalCluster {
  dir: string;
  kubeconfigPath: string;
  server: string;
  nodes: string[];
  /** Where kwok runs exec'd commands (this machine's filesystem). */
  execWorkDir: string;
  kubernetesVersion: string;
  /** Reads a component's log (for failure messages). */
  logTail(component: string, lines?: number): Promise<string>;
  /**
   * Answers the API server's pod proxy for an emulated pod's address and port with a server of
   * the test on 127.0.0.1:localPort (egress-proxy.ts).
   */
  routePod(podIp: string, port: number, localPort: number): void;
  stop(): Promise<void>;
}

const DEFAULT_USAGE = { default: { cpu: '5m', memory: '16Mi' } };
const READY_TIMEOUT_MS = 90_000;

interface Child {
  name: string;
  process: ChildProcess;
}

export async function startLocalCluster(options: LocalClusterOptions = {}): Promise<LocalCluster> {
  const bins = k8sBinaries();
  const dir = await mkdtemp(join(tmpdir(), 'mesh-perf-k8s-'));
  const children: Child[] = [];
  const pidFile = join(dir, 'pids');
  await writeFile(pidFile, '');
  // The guardian outlives nothing: when our stdin pipe to it closes (we exited or crashed), it
  // kills the pids listed in the file. A normal stop() kills them first and empties the file.
  const guardian = spawn('/bin/sh', ['-c', 'cat >/dev/null; kill -9 $(cat "$0") 2>/dev/null; exit 0', pidFile], {
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  guardian.unref();

  const startChild = async (name: string, command: string, args: string[], env: NodeJS.ProcessEnv = process.env) => {
    const log = createWriteStream(join(dir, `${name}.log`));
    const child = spawn(command, args, { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.pipe(log);
    child.stderr!.pipe(log);
    children.push({ name, process: child });
    await writeFile(pidFile, children.map((c) => c.process.pid).join(' '));
    return child;
  };

  let egress: EgressProxy | undefined;
  const stop = async () => {
    // Reverse start order: kwok and controllers before the API server, etcd last.
    for (const child of [...children].reverse()) await stopChild(child);
    children.length = 0;
    await egress?.close();
    await writeFile(pidFile, '').catch(() => undefined);
    guardian.stdin!.end();
    await rm(dir, { recursive: true, force: true });
  };

  try {
    const pki = await makePki(dir);
    // Below the ephemeral range (test/support/ports.ts): the scheduler binds its port seconds after
    // it was found free, and an ephemeral one can be taken meanwhile by any outgoing connection of
    // the other lanes' API clients (CI 16b: "bind: address already in use").
    const first = await freePortRun(5);
    const [etcdPort, etcdPeer, apiPort, cmPort, schedPort] = [first, first + 1, first + 2, first + 3, first + 4];
    await startChild('etcd', bins.etcd, [
      '--name=local',
      `--data-dir=${join(dir, 'etcd')}`,
      `--listen-client-urls=http://127.0.0.1:${etcdPort}`,
      `--advertise-client-urls=http://127.0.0.1:${etcdPort}`,
      `--listen-peer-urls=http://127.0.0.1:${etcdPeer}`,
      `--initial-advertise-peer-urls=http://127.0.0.1:${etcdPeer}`,
      `--initial-cluster=local=http://127.0.0.1:${etcdPeer}`,
      '--log-level=warn',
    ]);
    await waitFor('etcd', () => httpOk(`http://127.0.0.1:${etcdPort}/health`), children, dir);

    const server = `https://127.0.0.1:${apiPort}`;
    egress = await startEgressProxy(join(dir, 'egress.sock'));
    await writeFile(join(dir, 'egress.yaml'), egressSelectorConfig(egress.socketPath));
    await startChild('kube-apiserver', bins.kubeApiserver, [
      `--etcd-servers=http://127.0.0.1:${etcdPort}`,
      '--bind-address=127.0.0.1',
      '--advertise-address=127.0.0.1',
      `--secure-port=${apiPort}`,
      `--tls-cert-file=${pki.serverCert}`,
      `--tls-private-key-file=${pki.serverKey}`,
      `--client-ca-file=${pki.caCert}`,
      `--service-account-key-file=${pki.saPub}`,
      `--service-account-signing-key-file=${pki.saKey}`,
      '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
      '--service-cluster-ip-range=10.96.0.0/16',
      '--authorization-mode=RBAC',
      '--allow-privileged=true',
      `--kubelet-client-certificate=${pki.adminCert}`,
      `--kubelet-client-key=${pki.adminKey}`,
      '--profiling=false',
      // kwok watches from resourceVersion "0", which the WatchList gate turns into a streaming
      // watch; that needs etcd's progress requests (etcd ≥ 3.4.31), and Debian's 3.4.23 has none,
      // so every kwok watch ended at once and kwok saw pods only when its reflector relisted, after
      // a backoff growing to 30 s: pods Running 20-35 s late, namespaces gone 10-46 s late
      // (measured 2026-11-29). Without the gate those watches are plain watches again.
      '--feature-gates=WatchList=false',
      // Fake node names do not resolve; their (TEST-NET) addresses reach kwok via the egress proxy.
      '--kubelet-preferred-address-types=InternalIP',
      `--egress-selector-config-file=${join(dir, 'egress.yaml')}`,
      '--v=1',
    ]);
    await waitFor('kube-apiserver', () => apiOk(server, '/readyz', pki), children, dir);

    const kubeconfigPath = join(dir, 'kubeconfig');
    await writeFile(kubeconfigPath, await kubeconfigYaml(pki, server), { mode: 0o600 });
    const common = [
      `--kubeconfig=${kubeconfigPath}`,
      `--authentication-kubeconfig=${kubeconfigPath}`,
      `--authorization-kubeconfig=${kubeconfigPath}`,
      '--bind-address=127.0.0.1',
      '--leader-elect=false',
    ];
    await startChild('kube-controller-manager', bins.kubeControllerManager, [
      ...common,
      `--secure-port=${cmPort}`,
      `--service-account-private-key-file=${pki.saKey}`,
      `--root-ca-file=${pki.caCert}`,
      '--use-service-account-credentials=false',
      '--controllers=*,-nodeipam,-cloud-node-lifecycle,-service-lb-controller,-node-route-controller',
      '--concurrent-gc-syncs=5',
      // kwok renews node leases from this shared, often loaded machine; a lapse of the default 50 s
      // marks the node NotReady and its pods not ready mid-test. No test here is about node loss.
      '--node-monitor-grace-period=3m',
      '--v=1',
    ]);
    await startChild('kube-scheduler', bins.kubeScheduler, [...common, `--secure-port=${schedPort}`, '--v=1']);

    const execWorkDir = join(dir, 'exec');
    await mkdir(execWorkDir);
    const nodeCount = options.nodes ?? 2;
    const nodes: string[] = [];
    for (let i = 0; i < nodeCount; i++) {
      const nodeName = `kwok-node-${i}`;
      nodes.push(nodeName);
      await createNode(server, pki, nodeName, options.nodeCpu?.[i]);
      const kubeletPort = await freePortRun(1);
      const configPath = join(dir, `kwok-${i}.yaml`);
      const execPath = `${localK6Dir()}:/usr/local/bin:/usr/bin:/bin`;
      await writeFile(configPath, kwokConfigYaml({ nodeName, execWorkDir, execPath, usage: options.usage ?? DEFAULT_USAGE }));
      await startChild(
        `kwok-${i}`,
        bins.kwok,
        [
          `--config=${configPath}`,
          `--kubeconfig=${kubeconfigPath}`,
          `--manage-single-node=${nodeName}`,
          `--node-ip=${fakeNodeIp(i)}`,
          `--node-port=${kubeletPort}`,
          `--server-address=127.0.0.1:${kubeletPort}`,
          `--tls-cert-file=${pki.kubeletCert}`,
          `--tls-private-key-file=${pki.kubeletKey}`,
          `--cidr=10.244.${i}.1/24`,
          '--node-lease-duration-seconds=40',
        ],
        { ...process.env, PATH: execPath },
      );
    }
    for (const node of nodes) await waitFor(`node ${node} Ready`, () => nodeReady(server, pki, node), children, dir);
    // Pods need the namespace's default ServiceAccount, which the controller manager creates.
    await waitFor('default ServiceAccount', () => apiOk(server, '/api/v1/namespaces/default/serviceaccounts/default', pki), children, dir);

    return {
      dir,
      kubeconfigPath,
      server,
      nodes,
      execWorkDir,
      kubernetesVersion: bins.kubernetesVersion,
      logTail: (component, lines = 30) => logTail(dir, component, lines),
      routePod: (podIp, port, localPort) => egress!.route(podIp, port, localPort),
      stop,
    };
  } catch (error) {
    const logs = await Promise.all(children.map(async (c) => `--- ${c.name}\n${await logTail(dir, c.name, 15)}`));
    await stop();
    throw new Error(`local control plane did not start: ${(error as Error).message}\n${logs.join('\n')}`);
  }
}

async function stopChild(child: Child): Promise<void> {
  const { process: proc } = child;
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  proc.kill('SIGTERM');
  const timer = setTimeout(() => proc.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

async function logTail(dir: string, component: string, lines: number): Promise<string> {
  const text = await readFile(join(dir, `${component}.log`), 'utf8').catch(() => '');
  return text.trim().split('\n').slice(-lines).join('\n');
}

async function waitFor(what: string, check: () => Promise<boolean>, children: Child[], dir: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const dead = children.find((c) => c.process.exitCode !== null || c.process.signalCode !== null);
    if (dead)
      throw new Error(
        `${dead.name} exited (${dead.process.exitCode ?? dead.process.signalCode}) while waiting for ${what}:\n${await logTail(dir, dead.name, 20)}`,
      );
    if (await check().catch(() => false)) return;
    await sleep(250);
  }
  throw new Error(`${what} not ready within ${READY_TIMEOUT_MS / 1000}s`);
}

async function httpOk(url: string): Promise<boolean> {
  const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
  return response.ok;
}

function apiRequest(server: string, path: string, pki: Pki, method = 'GET', body?: unknown): Promise<{ status: number; body: string }> {
  return Promise.all([readFile(pki.caCert), readFile(pki.adminCert), readFile(pki.adminKey)]).then(
    ([ca, cert, key]) =>
      new Promise((resolve, reject) => {
        const req = request(
          `${server}${path}`,
          { method, agent: new Agent({ ca, cert, key }), headers: body ? { 'content-type': 'application/json' } : {}, timeout: 5000 },
          (res) => {
            let text = '';
            res.on('data', (chunk: Buffer) => (text += chunk.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
          },
        );
        req.on('timeout', () => req.destroy(new Error('timeout')));
        req.on('error', reject);
        req.end(body ? JSON.stringify(body) : undefined);
      }),
  );
}

async function apiOk(server: string, path: string, pki: Pki): Promise<boolean> {
  return (await apiRequest(server, path, pki)).status === 200;
}

async function createNode(server: string, pki: Pki, name: string, cpu = '4'): Promise<void> {
  const capacity = { cpu, memory: '16Gi', pods: '110', 'ephemeral-storage': '100Gi' };
  const node = {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: { 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64', 'kubernetes.io/hostname': name, type: 'kwok' },
      annotations: { 'node.alpha.kubernetes.io/ttl': '0', 'kwok.x-k8s.io/node': 'fake' },
    },
    spec: {},
    status: { capacity, allocatable: capacity },
  };
  const response = await apiRequest(server, '/api/v1/nodes', pki, 'POST', node);
  if (response.status !== 201) throw new Error(`creating node ${name}: HTTP ${response.status} ${response.body.slice(0, 300)}`);
}

async function nodeReady(server: string, pki: Pki, name: string): Promise<boolean> {
  const response = await apiRequest(server, `/api/v1/nodes/${name}`, pki);
  if (response.status !== 200) return false;
  const node = JSON.parse(response.body) as {
    spec?: { taints?: { key: string }[] };
    status?: { conditions?: { type: string; status: string }[] };
  };
  const ready = node.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
  // The node lifecycle controller removes the not-ready taint once kwok reports Ready.
  const tainted = (node.spec?.taints ?? []).some((t) => t.key.startsWith('node.kubernetes.io/not-ready'));
  return ready && !tainted;
}
