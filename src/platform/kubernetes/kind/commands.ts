// kind's generated cluster config and the exact kind command lines. Pure, unit-tested.
import { stringify } from 'yaml';

export interface KindClusterOptions {
  name: string;
  nodeImage: string;
  workers: number;
  podSubnet?: string;
  serviceSubnet?: string;
  configPath: string;
  kubeconfigPath: string;
  waitSeconds: number;
}

/**
 * One control plane and ≥ 2 workers so the k6 client and the echo server land on different
 * nodes. All nodes share the runner's kernel: raise inotify limits before creating the cluster
 * (istio-cni and ztunnel watch many files): see INOTIFY_SYSCTLS.
 */
export function kindConfig(options: Pick<KindClusterOptions, 'workers' | 'nodeImage' | 'podSubnet' | 'serviceSubnet'>): string {
  const nodes = [
    { role: 'control-plane', image: options.nodeImage },
    ...Array.from({ length: options.workers }, () => ({ role: 'worker', image: options.nodeImage })),
  ];
  // kind's own defaults unless set: a runner whose networks overlap 10.244.0.0/16 or 10.96.0.0/16 sets its own.
  const networking = {
    ...(options.podSubnet ? { podSubnet: options.podSubnet } : {}),
    ...(options.serviceSubnet ? { serviceSubnet: options.serviceSubnet } : {}),
  };
  return stringify({
    kind: 'Cluster',
    apiVersion: 'kind.x-k8s.io/v1alpha4',
    ...(Object.keys(networking).length > 0 ? { networking } : {}),
    nodes,
  });
}

/** Host limits kind documents for multi-node clusters (known issue "too many open files"). */
export const INOTIFY_SYSCTLS = ['fs.inotify.max_user_watches=524288', 'fs.inotify.max_user_instances=512'];

export function kindCreateArgs(options: KindClusterOptions): string[] {
  return [
    'create',
    'cluster',
    '--name',
    options.name,
    '--config',
    options.configPath,
    '--image',
    options.nodeImage,
    '--kubeconfig',
    options.kubeconfigPath,
    '--wait',
    `${options.waitSeconds}s`,
  ];
}

export function kindDeleteArgs(name: string, kubeconfigPath?: string): string[] {
  return ['delete', 'cluster', '--name', name, ...(kubeconfigPath ? ['--kubeconfig', kubeconfigPath] : [])];
}

export function kindGetClustersArgs(): string[] {
  return ['get', 'clusters'];
}

export function kindKubeconfigArgs(name: string): string[] {
  return ['get', 'kubeconfig', '--name', name];
}

export function kindExportLogsArgs(name: string, dir: string): string[] {
  return ['export', 'logs', dir, '--name', name];
}
