// etcd, kube-apiserver, kube-controller-manager and kube-scheduler inside the node (the k8s tier's
// binaries): etcd on the node's loopback, the API server on the node IP, Services in 198.19.0.0/16.
import { setTimeout as sleep } from 'node:timers/promises';
import { componentPath } from '../components.ts';
import { alive, logTail } from '../processes.ts';
import { API_PORT, NODE_IP, SERVICE_CIDR, paths } from '../layout.ts';
import type { Action, NodeContext } from '../node.ts';
import { pkiFile } from './pki.ts';

const ETCD = 'http://127.0.0.1:2379';

async function apiReady(node: NodeContext): Promise<boolean> {
  const out = await node.exec(componentPath('kubectl'), ['--kubeconfig', paths.kubeconfig(), 'get', '--raw', '/readyz'], {
    namespaces: ['net'],
    timeoutMs: 5000,
  });
  return out.code === 0 && out.stdout.trim() === 'ok';
}

export const etcd: Action = {
  name: 'etcd',
  async up(node) {
    await node.start(
      'etcd',
      componentPath('etcd'),
      [
        '--name=mesh-perf-real',
        '--data-dir=/var/lib/etcd/data',
        `--listen-client-urls=${ETCD}`,
        `--advertise-client-urls=${ETCD}`,
        '--listen-peer-urls=http://127.0.0.1:2380',
        '--initial-advertise-peer-urls=http://127.0.0.1:2380',
        '--initial-cluster=mesh-perf-real=http://127.0.0.1:2380',
        '--listen-metrics-urls=http://127.0.0.1:2381',
        '--log-level=warn',
      ],
      '--name=mesh-perf-real',
    );
    const listening = async () =>
      (await node.exec('/bin/bash', ['-c', 'exec 3<>/dev/tcp/127.0.0.1/2379'], { namespaces: ['net'] })).code === 0;
    await node.waitFor('etcd listening', listening, 30_000, ['etcd']);
  },
  async down(node) {
    await node.stop('etcd');
  },
};

export const apiServer: Action = {
  name: 'kube-apiserver',
  async up(node) {
    await node.start(
      'kube-apiserver',
      componentPath('kube-apiserver'),
      [
        `--etcd-servers=${ETCD}`,
        `--bind-address=${NODE_IP}`,
        `--advertise-address=${NODE_IP}`,
        `--secure-port=${API_PORT}`,
        `--tls-cert-file=${pkiFile('apiserver.crt')}`,
        `--tls-private-key-file=${pkiFile('apiserver.key')}`,
        `--client-ca-file=${pkiFile('ca.crt')}`,
        `--service-account-key-file=${pkiFile('sa.pub')}`,
        `--service-account-signing-key-file=${pkiFile('sa.key')}`,
        '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
        `--service-cluster-ip-range=${SERVICE_CIDR}`,
        '--authorization-mode=RBAC',
        '--allow-privileged=true',
        `--kubelet-client-certificate=${pkiFile('admin.crt')}`,
        `--kubelet-client-key=${pkiFile('admin.key')}`,
        '--kubelet-preferred-address-types=InternalIP',
        '--profiling=false',
        '--v=1',
      ],
      paths.pki(),
    );
    await node.waitFor('kube-apiserver ready', () => apiReady(node), 90_000, ['kube-apiserver']);
  },
  async down(node) {
    // The API server can take >10 s on SIGTERM (the recipe's note); it is inside the node and its
    // state is thrown away, so 5 s, then SIGKILL.
    await node.stop('kube-apiserver', 5000);
  },
};

/** The flags both controllers share: the admin kubeconfig, loopback serving, no leader election. */
const CONTROLLER_FLAGS = [
  `--kubeconfig=${paths.kubeconfig()}`,
  `--authentication-kubeconfig=${paths.kubeconfig()}`,
  `--authorization-kubeconfig=${paths.kubeconfig()}`,
  '--bind-address=127.0.0.1',
  '--leader-elect=false',
  '--v=1',
];

const CONTROLLER_STARTS: Record<string, (node: NodeContext) => Promise<number>> = {
  'kube-controller-manager': (node) =>
    node.start(
      'kube-controller-manager',
      componentPath('kube-controller-manager'),
      [
        ...CONTROLLER_FLAGS,
        `--service-account-private-key-file=${pkiFile('sa.key')}`,
        `--root-ca-file=${pkiFile('ca.crt')}`,
        `--cluster-signing-cert-file=${pkiFile('ca.crt')}`,
        `--cluster-signing-key-file=${pkiFile('ca.key')}`,
        '--use-service-account-credentials=true',
        '--controllers=*,-nodeipam,-cloud-node-lifecycle,-service-lb-controller,-node-route-controller',
      ],
      paths.pki(),
    ),
  'kube-scheduler': (node) => node.start('kube-scheduler', componentPath('kube-scheduler'), CONTROLLER_FLAGS, paths.pki()),
};

export const controllers: Action = {
  name: 'controllers',
  async up(node) {
    await CONTROLLER_STARTS['kube-controller-manager']!(node);
    await CONTROLLER_STARTS['kube-scheduler']!(node);
    await node.waitFor(
      'the default ServiceAccount',
      async () =>
        (
          await node.exec(componentPath('kubectl'), ['--kubeconfig', paths.kubeconfig(), 'get', 'serviceaccount', 'default'], {
            namespaces: ['net'],
            timeoutMs: 5000,
          })
        ).code === 0,
      60_000,
      ['kube-controller-manager', 'kube-scheduler'],
    );
  },
  async down(node) {
    await node.stop('kube-scheduler');
    await node.stop('kube-controller-manager');
  },
};

/**
 * Restarts kube-scheduler or kube-controller-manager when one exits, as a cluster's own supervisor
 * does (the kubelet restarts kubeadm's and kind's static pods; systemd its units). The fault tier
 * needs it: kube-scheduler exits by design when its cache finds a pod "updated on a different node
 * than previously added to" (its cache.go: "Scheduler cache is corrupted", then FlushAndExit),
 * which it met about 30 s after an API server restart, and every run after that waited
 * readyTimeout for pods nothing scheduled. Each restart is said with the last line of the log.
 */
export function superviseControllers(node: NodeContext, log: (line: string) => void, intervalMs = 2000): { stop(): Promise<void> } {
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      await sleep(intervalMs);
      for (const [name, start] of Object.entries(CONTROLLER_STARTS)) {
        const proc = node.record.processes.find((p) => p.name === name);
        if (stopped || !proc || alive(proc.pid)) continue;
        const last = logTail(node.layout.logs(), name, 1).trim();
        log(`${name} (pid ${proc.pid}) exited (its log's last line: ${last.slice(0, 300)}): restarted, as its supervisor would`);
        await start(node).catch((error: Error) => log(`${name} could not be restarted: ${error.message}`));
      }
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
    },
  };
}
