// The kind node image, assembled offline as kind v0.31.0 makes kindest/node: images/base's
// Dockerfile (kind's base files on a Debian root file system with its packages, the container
// runtime and CNI plugins at kind's versions, the systemd units enabled), then `build
// node-image`'s steps (kubeadm, kubelet and kubectl in /usr/bin, /kind/version, the default CNI and
// storage manifests, the node's images imported into its containerd, pinned). Three settings are
// this VM's, not kind's, and said where they are made (HARNESS below). Built by the tier's own
// dockerd, pushed to its registry (the product takes a node image pinned by digest only), and
// reused while its inputs are unchanged.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, createReadStream, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { componentPath } from '../real/components.ts';
import { imageArchives } from '../real/images.ts';
import { kindComponentPath, versions } from './components.ts';
import type { KindHost } from './host.ts';
import { REGISTRY, stateDir } from './layout.ts';
import { nodeImageSpecs } from './node-images.ts';

/** The node image's name in the tier's registry (the product gets it with its digest). */
export const nodeImageName = () => `${REGISTRY}/kindest/node:v${versions().KIND_KUBERNETES_VERSION}`;

const ROOTFS_IMAGE = 'mesh-perf.local/kind-node-rootfs';

/**
 * What this VM needs and kind does not do (kind-real/README.md): containerd may not lower
 * oom_score_adj here (pause asks for -998), kubelet 1.35 refuses cgroup v1 unless told, and the
 * nodes pull the meshes' images from the tier's registry over plain HTTP (the product writes no
 * containerdConfigPatches; on a runner they come from public registries over HTTPS).
 */
const HARNESS = `RUN sed -i 's/restrict_oom_score_adj = false/restrict_oom_score_adj = true/' /etc/containerd/config.toml \\
 && printf '\\n[plugins."io.containerd.grpc.v1.cri".registry]\\n  config_path = "/etc/containerd/certs.d"\\n' >> /etc/containerd/config.toml \\
 && mkdir -p /etc/containerd/certs.d/${REGISTRY} \\
 && printf 'server = "http://${REGISTRY}"\\n[host."http://${REGISTRY}"]\\n  capabilities = ["pull", "resolve"]\\n' > /etc/containerd/certs.d/${REGISTRY}/hosts.toml \\
 && sed -i 's|^KUBELET_EXTRA_ARGS=\\(.*\\)$|KUBELET_EXTRA_ARGS=\\1 --fail-cgroupv1=false|' /etc/default/kubelet`;

/** images/base/Dockerfile's steps at v0.31.0 (the COPYs, the package cleanup, the units), then node-image's files. */
function dockerfile(rootfs: string): string {
  return `FROM ${rootfs}
COPY files/usr/local/bin/ /usr/local/bin/
COPY files/kind/ /kind/
COPY files/etc/ /etc/
RUN chmod 0755 /usr/local/bin/* /kind/bin /kind/bin/* \\
 && find /lib/systemd/system/sysinit.target.wants/ -name "systemd-tmpfiles-setup.service" -delete \\
 && rm -f /lib/systemd/system/multi-user.target.wants/* \\
 && rm -f /etc/systemd/system/*.wants/* \\
 && rm -f /lib/systemd/system/local-fs.target.wants/* \\
 && rm -f /lib/systemd/system/sockets.target.wants/*udev* \\
 && rm -f /lib/systemd/system/sockets.target.wants/*initctl* \\
 && rm -f /lib/systemd/system/basic.target.wants/* \\
 && echo "ReadKMsg=no" >> /etc/systemd/journald.conf \\
 && ln -sf "$(which systemd)" /sbin/init
RUN systemctl enable kubelet.service && systemctl enable containerd.service && systemctl enable undo-mount-hacks.service \\
 && systemctl mask systemd-binfmt.service && mkdir -p /etc/kubernetes/manifests
COPY bin/runtime/ /usr/local/bin/
COPY bin/runc /usr/local/sbin/runc
COPY bin/cni/ /opt/cni/bin/
COPY bin/kubernetes/ /usr/bin/
RUN ctr oci spec | jq '.hooks.createContainer[.hooks.createContainer| length] |= . + {"path": "/kind/bin/mount-product-files.sh"}' \\
   | jq 'del(.process.rlimits)' > /etc/containerd/cri-base.json
COPY node/ /kind/
${HARNESS}
ENV container=docker
STOPSIGNAL SIGRTMIN+3
ENTRYPOINT [ "/usr/local/bin/entrypoint", "/sbin/init" ]
`;
}

interface Input {
  from: string;
  to: string;
}

function inputs(): Input[] {
  const v = versions();
  const cni = dirname(kindComponentPath('cni-plugins'));
  return [
    ...['containerd', 'ctr', 'containerd-shim-runc-v2'].map((n) => ({ from: kindComponentPath(n), to: `bin/runtime/${n}` })),
    { from: componentPath('crictl'), to: 'bin/runtime/crictl' },
    { from: kindComponentPath('runc'), to: 'bin/runc' },
    ...['host-local', 'loopback', 'ptp', 'portmap'].map((n) => ({ from: join(cni, n), to: `bin/cni/${n}` })),
    ...['kubeadm', 'kubelet', 'kubectl'].map((n) => ({ from: kindComponentPath(n), to: `bin/kubernetes/${n}` })),
    { from: kindComponentPath('node-rootfs'), to: `rootfs-${v.DEBIAN_SUITE}.tar` },
  ];
}

const stamp = (path: string) => `${path}:${statSync(path).size}:${statSync(path).mtimeMs}`;

/** Runs docker with a file on its stdin (image archives into the build container's containerd). */
function dockerWithInput(host: KindHost, args: string[], file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('docker', args, { env: host.dockerEnv(), stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    createReadStream(file).pipe(child.stdin);
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`docker ${args.join(' ')} < ${file}: exit ${code}: ${stderr.trim()}`)),
    );
  });
}

/**
 * The node image's reference pinned by digest, built and pushed unless the image of the same
 * inputs is already in Docker and in the registry.
 */
export async function ensureNodeImage(host: KindHost): Promise<string> {
  const v = versions();
  const name = nodeImageName();
  const archives = imageArchives(nodeImageSpecs());
  const base = kindComponentPath('kind-base').replace(/\/files\/usr\/local\/bin\/entrypoint$/, '');
  const rootfsTag = `${ROOTFS_IMAGE}:${basename(dirname(kindComponentPath('node-rootfs')))}`;
  const text = dockerfile(rootfsTag);
  const key = createHash('sha256')
    .update(
      JSON.stringify({
        text,
        inputs: inputs().map((i) => `${i.to}=${stamp(i.from)}`),
        archives: archives.map((a) => basename(a.archive)),
        base,
      }),
    )
    .digest('hex')
    .slice(0, 16);
  const existing = await host
    .docker(['image', 'inspect', '--format', '{{index .Config.Labels "mesh-perf.inputs"}} {{json .RepoDigests}}', name])
    .catch(() => '');
  const [label, digestsJson] = existing.trim().split(' ');
  const pinned =
    label === key ? (JSON.parse(digestsJson ?? '[]') as string[]).find((d) => d.startsWith(`${name.split(':v')[0]}@sha256:`)) : undefined;
  if (pinned && (await inRegistry(host, pinned))) return `${name}@${pinned.split('@')[1]}`;

  host.log(`building the kind node image ${name} (inputs ${key})`);
  if (!(await host.docker(['image', 'ls', '-q', rootfsTag])).trim())
    await host.docker(['import', kindComponentPath('node-rootfs'), rootfsTag], 600_000);
  const context = join(stateDir(), `node-image-${key}`);
  rmSync(context, { recursive: true, force: true });
  try {
    mkdirSync(join(context, 'node', 'manifests'), { recursive: true });
    cpSync(join(base, 'files'), join(context, 'files'), { recursive: true });
    for (const file of readdirSync(join(base, 'manifests')))
      copyFileSync(join(base, 'manifests', file), join(context, 'node', 'manifests', file));
    writeFileSync(join(context, 'node', 'version'), `v${v.KIND_KUBERNETES_VERSION}`);
    for (const input of inputs().filter((i) => i.to.startsWith('bin/'))) {
      mkdirSync(dirname(join(context, input.to)), { recursive: true });
      copyFileSync(input.from, join(context, input.to));
    }
    writeFileSync(join(context, 'Dockerfile'), text);
    const build = `mesh-perf.local/kind-node-build:${key}`;
    await host.docker(['build', '--network', 'none', '-q', '-t', build, context], 900_000);
    const container = `mesh-perf-node-build-${key}`;
    await host.docker(['rm', '-f', container]).catch(() => '');
    await host.docker([
      'run',
      '-d',
      '--privileged',
      '--network',
      'none',
      '--name',
      container,
      '--entrypoint',
      '/bin/sleep',
      build,
      'infinity',
    ]);
    try {
      // As kind's containerdImporter: a containerd of the node's own, the archives imported pinned.
      await host.docker(['exec', container, 'sh', '-c', 'nohup containerd >/tmp/containerd.log 2>&1 &']);
      await host.waitFor(
        'containerd in the node image build',
        async () => {
          await host.docker(['exec', container, 'ctr', 'version']);
          return true;
        },
        60_000,
      );
      for (const { archive } of archives)
        await dockerWithInput(
          host,
          [
            'exec',
            '-i',
            container,
            'ctr',
            '--namespace=k8s.io',
            'images',
            'import',
            '--label=io.cri-containerd.pinned=pinned',
            '--all-platforms',
            '--no-unpack',
            '--digests',
            '-',
          ],
          archive,
        );
      // Its parent is the build container's `sleep` (PID 1), which reaps nothing: once stopped it
      // stays a zombie, so only a running containerd is waited for.
      await host.docker(
        [
          'exec',
          container,
          'sh',
          '-c',
          'pkill -x containerd; while pgrep -x -r D,R,S containerd >/dev/null; do sleep 0.1; done; rm -f /tmp/containerd.log',
        ],
        60_000,
      );
      await host.docker(
        [
          'commit',
          '--change',
          'ENTRYPOINT [ "/usr/local/bin/entrypoint", "/sbin/init" ]',
          '--change',
          `LABEL mesh-perf.inputs=${key}`,
          container,
          name,
        ],
        600_000,
      );
    } finally {
      await host.docker(['rm', '-f', container]).catch(() => '');
    }
    await host.docker(['rmi', build]).catch(() => '');
  } finally {
    rmSync(context, { recursive: true, force: true });
  }
  await host.docker(['push', '-q', name], 900_000);
  const digests = JSON.parse(await host.docker(['image', 'inspect', '--format', '{{json .RepoDigests}}', name])) as string[];
  const digest = digests.find((d) => d.startsWith(`${name.split(':v')[0]}@sha256:`));
  if (!digest) throw new Error(`${name} was pushed but Docker records no digest for it (${digests.join(', ')})`);
  return `${name}@${digest.split('@')[1]}`;
}

/** The registry holds this manifest (name@sha256:…). */
async function inRegistry(host: KindHost, pinned: string): Promise<boolean> {
  const [repository, digest] = pinned.replace(`${REGISTRY}/`, '').split('@');
  const out = await host.exec(
    'curl',
    [
      '-fsS',
      '-o',
      '/dev/null',
      '-I',
      '-H',
      'Accept: application/vnd.docker.distribution.manifest.v2+json',
      `http://${REGISTRY}/v2/${repository}/manifests/${digest}`,
    ],
    { namespaces: ['net'], timeoutMs: 10_000 },
  );
  return out.code === 0;
}
