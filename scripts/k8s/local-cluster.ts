// Starts the local control plane the Kubernetes tests use (etcd, kube-apiserver,
// kube-controller-manager, kube-scheduler, kwok fake nodes) for manual work, prints the
// kubeconfig, and stops every process (by pid) on Ctrl-C or SIGTERM.
//   bash scripts/k8s/build.sh && node --import tsx scripts/k8s/local-cluster.ts [nodes]
// Then, in another shell: KUBECONFIG=<printed path> mesh-perf up --config FILE
import { startLocalCluster } from '../../test/support/k8s/cluster.ts';

const nodes = Number(process.argv[2] ?? 2);
const cluster = await startLocalCluster({ nodes });
process.stdout.write(
  `Local control plane (Kubernetes ${cluster.kubernetesVersion}, ${cluster.nodes.length} kwok nodes) at ${cluster.server}\n` +
    `export KUBECONFIG=${cluster.kubeconfigPath}\n` +
    `Exec'd commands run on this machine in ${cluster.execWorkDir}. Press Ctrl-C to stop.\n`,
);
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  process.stdout.write('stopping…\n');
  await cluster.stop();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
setInterval(() => {}, 1 << 30);
