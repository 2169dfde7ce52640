// CoreDNS for Service names (the product's client pods reach echo.<namespace>.svc.cluster.local).
// No forward plugin: there is nothing outside the node to forward to.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { imageRefs } from '../images.ts';
import { DNS_SERVICE_IP, paths } from '../layout.ts';
import type { Action } from '../node.ts';
import { kubectl } from './kubelet.ts';

const manifest = () => `apiVersion: v1
kind: ServiceAccount
metadata: {name: coredns, namespace: kube-system}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: system:coredns}
rules:
- {apiGroups: [""], resources: [endpoints, services, pods, namespaces], verbs: [list, watch]}
- {apiGroups: [discovery.k8s.io], resources: [endpointslices], verbs: [list, watch]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: system:coredns}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: system:coredns}
subjects: [{kind: ServiceAccount, name: coredns, namespace: kube-system}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: coredns, namespace: kube-system}
data:
  Corefile: |
    .:53 {
        errors
        health :8080
        ready :8181
        kubernetes cluster.local in-addr.arpa ip6.arpa {
            pods insecure
            fallthrough in-addr.arpa ip6.arpa
        }
        cache 30
    }
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: coredns, namespace: kube-system, labels: {k8s-app: kube-dns}}
spec:
  replicas: 1
  selector: {matchLabels: {k8s-app: kube-dns}}
  template:
    metadata: {labels: {k8s-app: kube-dns}}
    spec:
      serviceAccountName: coredns
      dnsPolicy: Default
      containers:
      - name: coredns
        image: ${imageRefs.coredns()}
        imagePullPolicy: Never
        args: ["-conf", "/etc/coredns/Corefile"]
        volumeMounts: [{name: config, mountPath: /etc/coredns}]
        readinessProbe: {httpGet: {path: /ready, port: 8181}, periodSeconds: 2}
        resources: {requests: {cpu: 50m, memory: 32Mi}}
      volumes: [{name: config, configMap: {name: coredns}}]
---
apiVersion: v1
kind: Service
metadata: {name: kube-dns, namespace: kube-system, labels: {k8s-app: kube-dns}}
spec:
  clusterIP: ${DNS_SERVICE_IP}
  selector: {k8s-app: kube-dns}
  ports:
  - {name: dns, port: 53, protocol: UDP}
  - {name: dns-tcp, port: 53, protocol: TCP}
`;

export const coredns: Action = {
  name: 'coredns',
  async up(node) {
    const file = join(paths.etc(), 'coredns.yaml');
    writeFileSync(file, manifest());
    await kubectl(node, ['apply', '-f', file]);
    await kubectl(node, ['-n', 'kube-system', 'rollout', 'status', 'deploy/coredns', '--timeout=180s'], 200_000);
  },
};
