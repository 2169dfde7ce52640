// Every component the real-node tier runs (npm run test:real), where it is cached and the command
// that builds it: the k8s tier's control plane and istioctl (scripts/k8s/build.sh), k6 and fortio
// (scripts/install-test-tools.sh), the node's own (scripts/real/build.sh: Debian packages, the
// kubelet, CoreDNS, Istio's node pieces, pause), ztunnel and Linkerd's binaries from
// $MESH_PERF_REAL_BIN, Linkerd's proxy-identity from a git snapshot ($MESH_PERF_LINKERD2_GIT). Plain JS:
// scripts/test-tiers.mjs reads it without tsx; test/support/real/components.ts types it.
import { accessSync, constants, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
const toolPath = (name, version) =>
  join(
    process.env.MESH_PERF_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'mesh-perf'),
    'tools',
    name,
    version,
    name,
  );

/** NAME=value lines of a versions file. */
function shellValues(file) {
  const text = readFileSync(join(root, file), 'utf8');
  return Object.fromEntries([...text.matchAll(/^([A-Z][A-Z0-9_]*)="?([^"\n]+?)"?\s*$/gm)].map(([, k, v]) => [k, v]));
}

/** Binaries taken from $MESH_PERF_REAL_BIN: name, version (commit), SHA-256 of the binary, repository. */
export function prebuilt() {
  const text = readFileSync(join(root, 'scripts/real/versions.sh'), 'utf8');
  return [...text.matchAll(/^\s*"([a-z0-9-]+)\|([0-9a-f]+)\|([0-9a-f]{64})\|([^"]+)"/gm)].map(([, name, version, sha256, repository]) => ({
    name,
    version,
    sha256,
    repository,
  }));
}

/** The version pinned in scripts/install-test-tools.sh for one of its Go tools. */
function testToolVersion(name) {
  const text = readFileSync(join(root, 'scripts/install-test-tools.sh'), 'utf8');
  const row = new RegExp(`"${name}\\|[^|]+\\|([^"|]+)"`).exec(text);
  if (!row) throw new Error(`scripts/install-test-tools.sh pins no ${name}`);
  return row[1];
}

/** k6 with mesh-perf's pacer, as scripts/install-test-tools.sh caches it (a binary named k6). */
function pacerK6() {
  const text = readFileSync(join(root, 'scripts/install-test-tools.sh'), 'utf8');
  const version = /^PACER_K6_VERSION="([^"]+)"/m.exec(text)?.[1];
  if (!version) throw new Error('scripts/install-test-tools.sh pins no PACER_K6_VERSION');
  return {
    name: 'k6-pacer',
    version,
    path: join(dirname(toolPath('k6-pacer', version)), 'k6'),
    how: 'bash scripts/install-test-tools.sh k6-pacer',
  };
}

/** [{ name, version, path, how }] */
export function components() {
  const k8s = shellValues('scripts/k8s/versions.sh');
  const real = shellValues('scripts/real/versions.sh');
  const built = (name, version, how = `bash scripts/real/build.sh ${name}`) => ({ name, version, path: toolPath(name, version), how });
  const apt = (name, path) => ({ name, version: 'Debian 12', path, how: 'bash scripts/real/build.sh apt' });
  const fromBin = (name) => {
    const p = prebuilt().find((row) => row.name === name);
    return built(
      name,
      p.version,
      `MESH_PERF_REAL_BIN=<a directory with ${name}.xz built from ${p.repository} at ${p.version}> bash scripts/real/build.sh ${name}`,
    );
  };
  const linkerd2 = real.LINKERD2_COMMIT.slice(0, 12);
  return [
    apt('containerd', '/usr/bin/containerd'),
    apt('runc', '/usr/sbin/runc'),
    apt('ctr', '/usr/bin/ctr'),
    apt('cni-bridge', '/usr/lib/cni/bridge'),
    apt('iptables', '/usr/sbin/iptables'),
    apt('conntrack', '/usr/sbin/conntrack'),
    // Not in iptables' dependencies: a fresh Debian 12 machine had iptables-nft without the nft CLI,
    // and every real-tier test failed on it (spawnSync nft ENOENT) instead of the tier being skipped.
    apt('nft', '/usr/sbin/nft'),
    apt('busybox', '/bin/busybox'),
    { name: 'etcd', version: 'Debian 12', path: process.env.MESH_PERF_ETCD ?? '/usr/bin/etcd', how: 'bash scripts/k8s/build.sh etcd' },
    ...['kube-apiserver', 'kube-controller-manager', 'kube-scheduler'].map((n) =>
      built(n, k8s.KUBERNETES_VERSION, `bash scripts/k8s/build.sh ${n}`),
    ),
    built('istioctl', k8s.ISTIO_VERSION, 'bash scripts/k8s/build.sh istioctl'),
    ...['kubelet', 'kube-proxy', 'kubectl'].map((n) => built(n, k8s.KUBERNETES_VERSION)),
    built('crictl', real.CRICTL_VERSION),
    built('coredns', real.COREDNS_VERSION),
    built('pause', real.PAUSE_VERSION),
    ...['pilot-discovery', 'istio-cni', 'install-cni'].map((n) => built(n, k8s.ISTIO_VERSION)),
    ...['k6', 'fortio'].map((n) => built(n, testToolVersion(n), `bash scripts/install-test-tools.sh ${n}`)),
    // The client image's k6: the one with mesh-perf's pacer (k6ext/), as the product runs its
    // built-in profiles; stock k6 for any other script (bench/real-meshes' plain k6 included).
    pacerK6(),
    fromBin('ztunnel'),
    // Linkerd: the CLI the product installs with, the controller image's two binaries, the proxy
    // image's (the proxy, proxy-init and proxy-identity, its entrypoint). The CNI plugin is not used:
    // proxy-init sets each pod's iptables (the product installs Linkerd without its CNI).
    ...['linkerd-cli', 'linkerd-controller', 'linkerd-policy-controller', 'linkerd2-proxy', 'linkerd-proxy-init'].map(fromBin),
    built(
      'linkerd-proxy-identity',
      linkerd2,
      `MESH_PERF_LINKERD2_GIT=<a git directory of github.com/linkerd/linkerd2 holding ${real.LINKERD2_COMMIT}> bash scripts/real/build.sh linkerd-proxy-identity`,
    ),
  ];
}

/** True when the file exists and this process may run it. */
export function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function missingComponents() {
  return components().filter((c) => !executable(c.path));
}
