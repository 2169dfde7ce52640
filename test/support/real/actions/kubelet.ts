// The real kubelet (the k8s tier's version) on the node's containerd, and kube-proxy (iptables mode,
// inside the node's network namespace). This machine's cgroups are v1 without systemd: cgroupfs
// driver, failCgroupV1 false, pods under their own cgroup root (cgroups.ts removes it).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { componentPath } from '../components.ts';
import { CGROUP_ROOT, CLUSTER_CIDR, DNS_SERVICE_IP, NODE_IP, NODE_NAME, POD_CIDR, paths } from '../layout.ts';
import type { Action, NodeContext } from '../node.ts';
import { SOCKET } from './containerd.ts';
import { pkiFile } from './pki.ts';

const kubeletConfig = () => `apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
address: ${NODE_IP}
port: 10250
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
healthzPort: 10248
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: true}
  x509: {clientCAFile: ${pkiFile('ca.crt')}}
authorization: {mode: Webhook}
tlsCertFile: ${pkiFile('kubelet.crt')}
tlsPrivateKeyFile: ${pkiFile('kubelet.key')}
cgroupDriver: cgroupfs
cgroupRoot: /${CGROUP_ROOT}
failCgroupV1: false
failSwapOn: false
containerRuntimeEndpoint: unix://${SOCKET}
clusterDNS: [${DNS_SERVICE_IP}]
clusterDomain: cluster.local
resolvConf: ""
podCIDR: ${POD_CIDR}
maxPods: 110
evictionHard: {memory.available: 200Mi, nodefs.available: 2%, imagefs.available: 2%}
imageGCHighThresholdPercent: 99
imageGCLowThresholdPercent: 98
serializeImagePulls: false
rotateCertificates: false
serverTLSBootstrap: false
`;

const kubeProxyConfig = () => `apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
clientConnection: {kubeconfig: ${paths.kubeconfig()}}
hostnameOverride: ${NODE_NAME}
bindAddress: ${NODE_IP}
healthzBindAddress: 127.0.0.1:10256
metricsBindAddress: 127.0.0.1:10249
mode: iptables
clusterCIDR: ${CLUSTER_CIDR}
nodePortAddresses: [${NODE_IP}/32]
iptables: {localhostNodePorts: false, masqueradeAll: false}
conntrack: {maxPerCore: 0, min: 0, tcpEstablishedTimeout: 0s, tcpCloseWaitTimeout: 0s}
`;

export async function kubectl(node: NodeContext, args: string[], timeoutMs = 60_000): Promise<string> {
  const out = await node.exec(componentPath('kubectl'), ['--kubeconfig', paths.kubeconfig(), ...args], { namespaces: ['net'], timeoutMs });
  if (out.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${out.stderr.trim() || `exit ${out.code}`}`);
  return out.stdout;
}

export const kubelet: Action = {
  name: 'kubelet',
  async up(node) {
    mkdirSync(paths.etc(), { recursive: true });
    const file = join(paths.etc(), 'kubelet.yaml');
    writeFileSync(file, kubeletConfig());
    await node.start(
      'kubelet',
      componentPath('kubelet'),
      [`--config=${file}`, `--kubeconfig=${paths.kubeconfig()}`, `--hostname-override=${NODE_NAME}`, `--node-ip=${NODE_IP}`, '--v=1'],
      file,
    );
    await node.waitFor(
      `node ${NODE_NAME} Ready`,
      async () =>
        (await kubectl(node, ['get', 'node', NODE_NAME, '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].status}'], 5000)) ===
        'True',
      120_000,
      ['kubelet', 'containerd'],
    );
  },
  async down(node) {
    await node.stop('kubelet');
  },
};

export const kubeProxy: Action = {
  name: 'kube-proxy',
  async up(node) {
    const file = join(paths.etc(), 'kube-proxy.yaml');
    writeFileSync(file, kubeProxyConfig());
    await node.start('kube-proxy', componentPath('kube-proxy'), [`--config=${file}`, '--v=1'], file);
    // Its rules for the kubernetes Service are what every pod's API client goes through.
    await node.waitFor(
      'kube-proxy rules',
      async () => /KUBE-SERVICES/.test((await node.exec('iptables-save', ['-t', 'nat'])).stdout),
      60_000,
      ['kube-proxy'],
    );
  },
  async down(node) {
    await node.stop('kube-proxy');
  },
};
