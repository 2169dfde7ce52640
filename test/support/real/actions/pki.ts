// The cluster's throwaway PKI (openssl, EC P-256), the k8s tier's own with the node's names: the API
// server serves 198.18.0.1 and the kubernetes Service, the kubelet serves the node IP. One admin
// kubeconfig (system:masters) for the components, the product and the tests.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { kubeconfigYaml, makePki } from '../../k8s/certs.ts';
import { API_PORT, KUBERNETES_SERVICE_IP, NODE_IP, NODE_NAME, paths } from '../layout.ts';
import type { Action } from '../node.ts';

export const pki: Action = {
  name: 'pki',
  async up() {
    rmSync(paths.pki(), { recursive: true, force: true });
    mkdirSync(paths.pki(), { recursive: true, mode: 0o700 });
    const made = await makePki(paths.pki(), {
      serverSans: `subjectAltName=IP:${NODE_IP},IP:${KUBERNETES_SERVICE_IP},IP:127.0.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local`,
      kubeletSans: `subjectAltName=IP:${NODE_IP},DNS:${NODE_NAME}`,
    });
    writeFileSync(paths.kubeconfig(), await kubeconfigYaml(made, `https://${NODE_IP}:${API_PORT}`, 'mesh-perf-real'), { mode: 0o600 });
  },
  async down() {
    rmSync(paths.pki(), { recursive: true, force: true });
  },
};

export const pkiFile = (name: string) => `${paths.pki()}/${name}`;
