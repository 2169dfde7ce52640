// The images a kind node carries in its containerd (kind's `build node-image` imports them): what
// `kubeadm config images list` names for the node's Kubernetes version, kind's sandbox image, and
// kind's default CNI (kindnetd) and storage images, under the exact names kind and kubeadm use. Each
// is FROM scratch (../real/oci-image.ts) with its binary and the shared libraries it loads; the two
// that program the node's network (kube-proxy, kindnetd) also carry Debian's iptables, nft and
// conntrack, as their upstream images (distroless-iptables) do.
import { componentPath } from '../real/components.ts';
import { iptablesEntries, withLibraries } from '../real/images.ts';
import type { ImageSpec, LayerEntry } from '../real/oci-image.ts';
import { kindComponentPath, versions } from './components.ts';

const PATH = ['PATH=/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'];

/** What kube-proxy and kindnetd call: iptables (nft and legacy), nft, conntrack. */
function networkTools(): LayerEntry[] {
  const unique = new Map<string, LayerEntry>();
  for (const e of [...iptablesEntries(), ...withLibraries('/usr/sbin/nft'), ...withLibraries('/usr/sbin/conntrack')])
    unique.set(e.path.replace(/^\/+/, ''), e);
  return [...unique.values()];
}

const binary = (ref: string, name: string, from: string, extra: LayerEntry[] = []): ImageSpec => ({
  ref,
  entrypoint: [`/usr/local/bin/${name}`],
  env: PATH,
  entries: [...withLibraries(from, `/usr/local/bin/${name}`), ...extra],
});

/** The node's images, by the names the node's containerd must hold. */
export function nodeImageSpecs(): ImageSpec[] {
  const v = versions();
  const k8s = `v${v.KIND_KUBERNETES_VERSION}`;
  const kube = (name: string, extra: LayerEntry[] = []) => binary(`registry.k8s.io/${name}:${k8s}`, name, kindComponentPath(name), extra);
  return [
    kube('kube-apiserver'),
    kube('kube-controller-manager'),
    kube('kube-scheduler'),
    kube('kube-proxy', networkTools()),
    binary(`registry.k8s.io/etcd:${v.ETCD_VERSION}-0`, 'etcd', kindComponentPath('etcd')),
    {
      ref: `registry.k8s.io/coredns/coredns:v${v.KIND_COREDNS_VERSION}`,
      entrypoint: ['/coredns'],
      entries: withLibraries(kindComponentPath('coredns'), '/coredns'),
    },
    // kind's containerd config names registry.k8s.io/pause:3.10 as the sandbox (it replaces kubeadm's pause).
    {
      ref: 'registry.k8s.io/pause:3.10',
      entrypoint: ['/pause'],
      entries: [{ kind: 'file', path: '/pause', from: componentPath('pause') }],
    },
    {
      ref: `docker.io/kindest/kindnetd:${v.KINDNETD_TAG}`,
      entrypoint: ['/bin/kindnetd'],
      env: PATH,
      entries: [...withLibraries(kindComponentPath('kindnetd'), '/bin/kindnetd'), ...networkTools()],
    },
    binary(
      `docker.io/kindest/local-path-provisioner:${v.LOCAL_PATH_TAG}`,
      'local-path-provisioner',
      kindComponentPath('local-path-provisioner'),
    ),
    {
      // The provisioner's helper pods run its setup and teardown scripts: sh, mkdir, rm.
      ref: `docker.io/kindest/local-path-helper:${v.LOCAL_PATH_HELPER_TAG}`,
      entrypoint: ['/bin/sh'],
      env: PATH,
      entries: [
        { kind: 'file', path: '/bin/busybox', from: componentPath('busybox') },
        ...['sh', 'mkdir', 'rm'].map((a): LayerEntry => ({ kind: 'symlink', path: `/bin/${a}`, target: 'busybox' })),
      ],
    },
  ];
}
