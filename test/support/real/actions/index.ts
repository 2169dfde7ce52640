// The real node's actions in order (node.ts runs them; down runs their undo in reverse).
import type { Action } from '../node.ts';
import { containerd, images } from './containerd.ts';
import { apiServer, controllers, etcd } from './control-plane.ts';
import { coredns } from './coredns.ts';
import { kubelet, kubeProxy } from './kubelet.ts';
import { namespaces } from './namespaces.ts';
import { network } from './network.ts';
import { pki } from './pki.ts';
import { preflight } from './preflight.ts';

export const ACTIONS: readonly Action[] = [
  preflight,
  namespaces,
  network,
  pki,
  etcd,
  apiServer,
  controllers,
  containerd,
  images,
  kubelet,
  kubeProxy,
  coredns,
];
