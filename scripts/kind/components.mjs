// Every component the kind tier runs (npm run test:kind), where it is cached and the command that
// builds it: its own (scripts/kind/build.sh: Debian's Docker, kind, the registry, the node's
// binaries and images at kind v0.31.0's versions, the node base's root file system) and the real
// tier's, whose images it pushes for the meshes and the workload (scripts/real/components.mjs).
// Plain JS: scripts/test-tiers.mjs reads it without tsx; test/support/kind/components.ts types it.
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { components as realComponents, executable } from '../real/components.mjs';

const root = join(import.meta.dirname, '..', '..');
const cache = () => process.env.MESH_PERF_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'mesh-perf');
const toolPath = (name, version, file = name) => join(cache(), 'tools', name, version, file);

/** NAME=value lines of scripts/kind/versions.sh. */
export function kindVersions() {
  const text = readFileSync(join(root, 'scripts/kind/versions.sh'), 'utf8');
  return Object.fromEntries([...text.matchAll(/^([A-Z][A-Z0-9_]*)="?([^"\n]+?)"?\s*$/gm)].map(([, k, v]) => [k, v]));
}

/** The rootfs cache key build.sh uses: the suite and the first 12 hex of sha256("<packages>\n"). */
export function rootfsVersion(v = kindVersions()) {
  return `${v.DEBIAN_SUITE}-${createHash('sha256').update(`${v.NODE_BASE_PACKAGES}\n`).digest('hex').slice(0, 12)}`;
}

/** [{ name, version, path, how }]: the kind tier's own, then the real tier's. */
export function components() {
  const v = kindVersions();
  const built = (name, version, file = name) => ({
    name,
    version,
    path: toolPath(name, version, file),
    how: `bash scripts/kind/build.sh ${name}`,
  });
  const apt = (name, path) => ({ name, version: 'Debian 12', path, how: 'bash scripts/kind/build.sh apt' });
  const k8s = v.KIND_KUBERNETES_VERSION;
  return [
    apt('dockerd', '/usr/sbin/dockerd'),
    apt('docker', '/usr/bin/docker'),
    built('kind', v.KIND_VERSION),
    built('registry', v.REGISTRY_VERSION),
    ...['containerd', 'ctr', 'containerd-shim-runc-v2'].map((n) => built(n, v.CONTAINERD_VERSION)),
    built('runc', v.RUNC_VERSION),
    built('cni-plugins', v.CNI_PLUGINS_VERSION),
    ...['kubeadm', 'kubelet', 'kubectl', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kube-proxy'].map((n) =>
      built(n, k8s),
    ),
    built('etcd', v.ETCD_VERSION),
    built('coredns', v.KIND_COREDNS_VERSION),
    {
      ...built('kindnetd', v.KINDNETD_TAG),
      how: `MESH_PERF_KIND_GIT=<a git directory of github.com/kubernetes-sigs/kind holding ${v.KINDNETD_COMMIT}> bash scripts/kind/build.sh kindnetd`,
    },
    built('local-path-provisioner', v.LOCAL_PATH_VERSION),
    { ...built('node-rootfs', rootfsVersion(v), 'node-rootfs.tar'), how: 'bash scripts/kind/build.sh node-rootfs', file: true },
    // kind's images/base/files and default manifests (the entrypoint is the marker).
    { ...built('kind-base', v.KIND_VERSION, 'files/usr/local/bin/entrypoint'), how: 'bash scripts/kind/build.sh kind-base', file: true },
    ...realComponents(),
  ];
}

/** A component is there: an executable, or (a root file system, kind's base files) a file. */
export function missingComponents() {
  return components().filter((c) => (c.file ? !existsSync(c.path) : !executable(c.path)));
}
