// containerd (Debian's) inside the node with its default paths, which are the node's own (/run and
// /var/lib/containerd are node-private): pods' sandbox image is the local pause; no registry, so
// every image is imported (images.ts). The bridge CNI network for pods (host-local IPAM in
// 198.18.0.0/24, gateway the node IP) goes into the node's /etc/cni/net.d; plugins into its /opt/cni/bin.
// This VM denies even root lowering oom_score_adj (pause asks for -998: runc fails "can't get final
// child's PID from pipe"), so containerd is told to restrict it: restrict_oom_score_adj.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { componentPath } from '../components.ts';
import { imageArchives, imageRefs } from '../images.ts';
import { BRIDGE, NODE_IP, POD_CIDR, paths } from '../layout.ts';
import type { Action } from '../node.ts';

export const SOCKET = '/run/containerd/containerd.sock';

const config = () => `version = 2
root = "/var/lib/containerd"
state = "/run/containerd"
[grpc]
  address = "${SOCKET}"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "${imageRefs.pause()}"
  restrict_oom_score_adj = true
  disable_apparmor = true
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/opt/cni/bin"
    conf_dir = "/etc/cni/net.d"
`;

export const bridgeConflist = () =>
  JSON.stringify(
    {
      cniVersion: '1.0.0',
      name: 'mesh-perf-real',
      plugins: [
        {
          type: 'bridge',
          bridge: BRIDGE,
          isGateway: true,
          ipMasq: false,
          hairpinMode: true,
          ipam: { type: 'host-local', ranges: [[{ subnet: POD_CIDR, gateway: NODE_IP }]], routes: [{ dst: '0.0.0.0/0' }] },
        },
        { type: 'portmap', capabilities: { portMappings: true } },
      ],
    },
    null,
    2,
  );

export const containerd: Action = {
  name: 'containerd',
  async up(node) {
    mkdirSync(paths.etc(), { recursive: true });
    const file = join(paths.etc(), 'containerd.toml');
    writeFileSync(file, config());
    writeFileSync(node.root('/etc/cni/net.d/10-mesh-perf-bridge.conflist'), bridgeConflist());
    await node.sh('cp /usr/lib/cni/* /opt/cni/bin/');
    await node.start('containerd', componentPath('containerd'), ['--config', file], file);
    await node.waitFor(
      'containerd',
      async () => (await node.exec(componentPath('ctr'), ['--address', SOCKET, 'version'])).code === 0,
      30_000,
      ['containerd'],
    );
  },
  async down(node) {
    // Its shims and containers outlive it; the node's init takes them down (namespaces.ts).
    await node.stop('containerd');
  },
};

export const images: Action = {
  name: 'images',
  async up(node) {
    for (const { ref, archive } of imageArchives()) {
      const out = await node.exec(componentPath('ctr'), ['--address', SOCKET, '-n', 'k8s.io', 'images', 'import', archive], {
        timeoutMs: 180_000,
      });
      if (out.code !== 0) throw new Error(`importing ${ref} (${archive}): ${out.stderr.trim()}`);
    }
  },
};
