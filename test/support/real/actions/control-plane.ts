// etcd, kube-apiserver, kube-controller-manager and kube-scheduler inside the node (the k8s tier's
// binaries): etcd on the node's loopback, the API server on the node IP, Services in 198.19.0.0/16.
import { componentPath } from '../components.ts';
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

export const controllers: Action = {
  name: 'controllers',
  async up(node) {
    const common = [
      `--kubeconfig=${paths.kubeconfig()}`,
      `--authentication-kubeconfig=${paths.kubeconfig()}`,
      `--authorization-kubeconfig=${paths.kubeconfig()}`,
      '--bind-address=127.0.0.1',
      '--leader-elect=false',
      '--v=1',
    ];
    await node.start(
      'kube-controller-manager',
      componentPath('kube-controller-manager'),
      [
        ...common,
        `--service-account-private-key-file=${pkiFile('sa.key')}`,
        `--root-ca-file=${pkiFile('ca.crt')}`,
        `--cluster-signing-cert-file=${pkiFile('ca.crt')}`,
        `--cluster-signing-key-file=${pkiFile('ca.key')}`,
        '--use-service-account-credentials=true',
        '--controllers=*,-nodeipam,-cloud-node-lifecycle,-service-lb-controller,-node-route-controller',
      ],
      paths.pki(),
    );
    await node.start('kube-scheduler', componentPath('kube-scheduler'), common, paths.pki());
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
