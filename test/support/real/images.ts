// The node's images, FROM scratch (oci-image.ts), under the local registry name the product is
// pointed at (kubernetes.images.registry: mesh-perf.local): each binary with the shared libraries
// ldd finds, so glibc builds (ztunnel, Debian's iptables in install-cni) run without a base image.
// Archives are cached under ~/.cache/mesh-perf/real-images, rebuilt when an input changes.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, realpathSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildVersions } from '../k8s/tools.ts';
import { componentPath, componentVersion } from './components.ts';
import { LOCAL_REGISTRY, paths } from './layout.ts';
import { type Capability, type ImageSpec, type LayerEntry, ociArchive } from './oci-image.ts';

/** A binary and every shared library it loads (as ldd resolves them), at their own paths. */
export function withLibraries(binary: string, dest = binary): LayerEntry[] {
  const out: LayerEntry[] = [{ kind: 'file', path: dest, from: binary }];
  let listing = '';
  try {
    listing = execFileSync('ldd', [binary], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return out; // "not a dynamic executable"
  }
  for (const match of listing.matchAll(/(\/\S+\.so[^\s]*)/g)) {
    const lib = match[1]!;
    out.push({ kind: 'file', path: lib, from: realpathSync(lib) });
  }
  return out;
}

const unique = (entries: LayerEntry[]) => [...new Map(entries.map((e) => [e.path.replace(/^\/+/, ''), e])).values()];

/**
 * The applets the product's commands in the client pod use (exec.ts, k6-runner.ts, k6-client.yaml):
 * the k6 command's follower and session (setsid, wc, tail, head, mv) too, as grafana/k6's Alpine has
 * them. Without their links, busybox's shell still ran them inside `sh -c`, but a bare `tail` exec
 * failed ("failed to start exec").
 */
const BUSYBOX_APPLETS = [
  'sh',
  'sleep',
  'mkdir',
  'dirname',
  'printf',
  'base64',
  'cat',
  'ls',
  'rm',
  'kill',
  'echo',
  'env',
  'true',
  'test',
  'setsid',
  'wc',
  'tail',
  'head',
  'mv',
];

export const istioTag = () => buildVersions().ISTIO_BUILD_TAG!;

/** The images' names under a registry (the real node's local name; the kind tier's registry). */
export const imageRefsFor = (registry: string) => ({
  pause: () => `${registry}/pause:${componentVersion('pause')}`,
  echo: () => `${registry}/fortio/fortio:${componentVersion('fortio')}`,
  /** grafana/k6 with the k6 that has mesh-perf's pacer, as the k6ext/Dockerfile image is. */
  client: () => `${registry}/grafana/k6:${componentVersion('k6-pacer')}`,
  coredns: () => `${registry}/coredns/coredns:${componentVersion('coredns')}`,
  istio: (name: string) => `${registry}/istio/${name}:${istioTag()}`,
  /** cr.l5d.io/linkerd/<name> through the mirror (commands.ts linkerdMirrorValues), tagged as the CLI's chart tags it. */
  linkerd: (name: string) => `${registry}/linkerd/${name}:${linkerdVersion()}`,
});
export const imageRefs = imageRefsFor(LOCAL_REGISTRY);

let cliVersion: string | undefined;
/** The version the Linkerd CLI reports (edge-26.8.3 for the cached build): its chart's default image tag. */
export function linkerdVersion(): string {
  cliVersion ??= execFileSync(componentPath('linkerd-cli'), ['version', '--client', '--short'], { encoding: 'utf8' }).trim();
  return cliVersion;
}
/** Istio's charts add "-<variant>" to the tag when global.variant is set (e.g. distroless): both names are served. */
const istioAliases = (refs: ReturnType<typeof imageRefsFor>, name: string) => [`${refs.istio(name)}-distroless`];

/**
 * Debian's iptables: two multi-call binaries that act by the name they are called as, so every name
 * a mesh's init may call is a symlink (the plain names to nft, as on the node), with the extension
 * modules they load. `capabilities` as Linkerd's proxy image sets them (setcap on the multi-call
 * binaries): its proxy-init runs as a non-root user.
 */
export function iptablesEntries(capabilities?: Capability[]): LayerEntry[] {
  const names = ['iptables', 'iptables-save', 'iptables-restore', 'ip6tables', 'ip6tables-save', 'ip6tables-restore'];
  const link = (name: string, multi: string): LayerEntry => ({ kind: 'symlink', path: `/usr/sbin/${name}`, target: multi });
  const multi = (name: string): LayerEntry[] =>
    withLibraries(`/usr/sbin/${name}`).map((e, i) => (i === 0 && capabilities ? { ...e, capabilities } : e));
  const xtables = '/usr/lib/x86_64-linux-gnu/xtables';
  return [
    ...multi('xtables-nft-multi'),
    ...multi('xtables-legacy-multi'),
    ...names.map((n) => link(n, 'xtables-nft-multi')),
    ...names.map((n) => link(n.replace(/^(ip6?tables)/, '$1-nft'), 'xtables-nft-multi')),
    ...names.map((n) => link(n.replace(/^(ip6?tables)/, '$1-legacy'), 'xtables-legacy-multi')),
    ...readdirSync(xtables).flatMap((f) => withLibraries(join(xtables, f))),
  ];
}

/** Linkerd's images as its Dockerfiles make them (linkerd2's Dockerfile.controller and Dockerfile.proxy). */
function linkerdSpecs(refs: ReturnType<typeof imageRefsFor>): ImageSpec[] {
  const version = linkerdVersion();
  // The controller reports this version (linkerd check compares it with the CLI's), as upstream's images do.
  const env = ['PATH=/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', `LINKERD_CONTAINER_VERSION_OVERRIDE=${version}`];
  const lib = '/usr/lib/linkerd';
  return [
    {
      // destination, identity, proxy-injector, sp-validator, heartbeat: subcommands of /controller;
      // the destination pod's policy container runs /linkerd-policy-controller.
      ref: refs.linkerd('controller'),
      entrypoint: ['/controller'],
      env,
      entries: [
        { kind: 'file', path: '/controller', from: componentPath('linkerd-controller') },
        ...withLibraries(componentPath('linkerd-policy-controller'), '/linkerd-policy-controller'),
      ],
    },
    {
      // The sidecar (proxy-identity writes the key and CSR, then execs the proxy) and, in the same
      // image, the linkerd-init container's proxy-init with the iptables it runs, both with
      // NET_ADMIN and NET_RAW as file capabilities: the init runs as uid 65534.
      ref: refs.linkerd('proxy'),
      entrypoint: [`${lib}/linkerd2-proxy-identity`],
      env: [...env, 'LINKERD2_PROXY_LOG=warn,linkerd=info', 'LINKERD2_PROXY_LOG_FORMAT=plain'],
      user: '65534',
      entries: unique([
        { kind: 'file', path: `${lib}/linkerd2-proxy-identity`, from: componentPath('linkerd-proxy-identity') },
        ...withLibraries(componentPath('linkerd2-proxy'), `${lib}/linkerd2-proxy`),
        { kind: 'file', path: `${lib}/linkerd2-proxy-init`, from: componentPath('linkerd-proxy-init'), capabilities: NET_CAPABILITIES },
        ...iptablesEntries(NET_CAPABILITIES),
        // The proxy's preStop without native sidecars (waitBeforeExitSeconds).
        { kind: 'file', path: '/bin/busybox', from: componentPath('busybox') },
        { kind: 'symlink', path: '/bin/sleep', target: 'busybox' },
      ]),
    },
  ];
}

const NET_CAPABILITIES: Capability[] = ['NET_ADMIN', 'NET_RAW'];

/** The node's own images (its sandbox and CoreDNS): a kind node brings its own. */
function nodeSpecs(): ImageSpec[] {
  return [
    { ref: imageRefs.pause(), entrypoint: ['/pause'], entries: [{ kind: 'file', path: '/pause', from: componentPath('pause') }] },
    { ref: imageRefs.coredns(), entrypoint: ['/coredns'], entries: withLibraries(componentPath('coredns'), '/coredns') },
  ];
}

/** The workload's and the meshes' images (echo, k6 client, Istio ambient's, Linkerd's) under a registry. */
export function workloadSpecs(registry: string): ImageSpec[] {
  const refs = imageRefsFor(registry);
  return [
    {
      ref: refs.echo(),
      entrypoint: ['/usr/bin/fortio'],
      entries: [
        // The test tools' builds (scripts/install-test-tools.sh) link glibc: it comes along.
        ...withLibraries(componentPath('fortio'), '/usr/bin/fortio'),
        { kind: 'dir', path: '/var/lib/fortio', mode: 0o1777 },
      ],
    },
    {
      ref: refs.client(),
      entrypoint: ['/usr/bin/k6'],
      env: ['PATH=/usr/bin:/bin', 'HOME=/tmp'],
      entries: [
        ...withLibraries(componentPath('k6-pacer'), '/usr/bin/k6'),
        { kind: 'file', path: '/bin/busybox', from: componentPath('busybox') },
        ...BUSYBOX_APPLETS.map((a): LayerEntry => ({ kind: 'symlink', path: `/bin/${a}`, target: 'busybox' })),
      ],
    },
    {
      ref: refs.istio('pilot'),
      aliases: istioAliases(refs, 'pilot'),
      entrypoint: ['/usr/local/bin/pilot-discovery'],
      user: '1337:1337',
      entries: withLibraries(componentPath('pilot-discovery'), '/usr/local/bin/pilot-discovery'),
    },
    {
      ref: refs.istio('install-cni'),
      aliases: istioAliases(refs, 'install-cni'),
      entrypoint: ['/usr/local/bin/install-cni'],
      entries: unique([
        { kind: 'file', path: '/usr/local/bin/install-cni', from: componentPath('install-cni') },
        { kind: 'file', path: '/opt/cni/bin/istio-cni', from: componentPath('istio-cni') },
        ...iptablesEntries(),
      ]),
    },
    {
      ref: refs.istio('ztunnel'),
      aliases: istioAliases(refs, 'ztunnel'),
      entrypoint: ['/usr/local/bin/ztunnel'],
      entries: withLibraries(componentPath('ztunnel'), '/usr/local/bin/ztunnel'),
    },
    ...linkerdSpecs(refs),
  ];
}

/** Each image's archive, built unless cached for the same inputs (the real node's images by default). */
export function imageArchives(
  specs: ImageSpec[] = [...nodeSpecs(), ...workloadSpecs(LOCAL_REGISTRY)],
): { ref: string; aliases: string[]; archive: string }[] {
  mkdirSync(paths.images(), { recursive: true });
  return specs.map((spec) => {
    const inputs = spec.entries.map((e) =>
      e.kind === 'file'
        ? `${e.path}:${e.from}:${statSync(e.from).size}:${statSync(e.from).mtimeMs}:${e.capabilities ?? ''}`
        : JSON.stringify(e),
    );
    const key = createHash('sha256')
      .update(JSON.stringify({ ...spec, entries: inputs }))
      .digest('hex')
      .slice(0, 16);
    const archive = join(paths.images(), `${spec.ref.split('/').pop()!.replace(':', '-')}-${key}.tar`);
    if (!existsSync(archive)) {
      writeFileSync(`${archive}.partial`, ociArchive(spec).archive);
      renameSync(`${archive}.partial`, archive);
    }
    return { ref: spec.ref, aliases: spec.aliases ?? [], archive };
  });
}
