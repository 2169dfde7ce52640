// The kind network, made before kind is run: kind reuses a network named "kind" as it is
// (pkg/cluster/internal/providers/docker/network.go), so its subnet is the benchmarking range's
// and its gateway (the host's side of the bridge) is where the registry answers. Then the host's
// containment is checked: no default route, no interface but the loopback and Docker's bridges.
import type { Action } from '../host.ts';
import { KIND_GATEWAY, KIND_NETWORK, KIND_SUBNET } from '../layout.ts';

export const network: Action = {
  name: 'network',
  async up(host) {
    const existing = (await host.docker(['network', 'ls', '--filter', `name=^${KIND_NETWORK}$`, '--format', '{{.Name}}'])).trim();
    if (!existing)
      await host.docker([
        'network',
        'create',
        '--driver',
        'bridge',
        '--subnet',
        KIND_SUBNET,
        '--gateway',
        KIND_GATEWAY,
        '-o',
        'com.docker.network.bridge.enable_ip_masquerade=true',
        '-o',
        'com.docker.network.driver.mtu=1500',
        KIND_NETWORK,
      ]);
    const links = (await host.sh('ip -br link'))
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split(/\s+/)[0]!.split('@')[0]!);
    const routes = (await host.sh('ip route show table all | grep -v "^local\\|^broadcast\\|^multicast\\|fe80\\|^ff00" || true')).trim();
    const foreign = links.filter((l) => l !== 'lo' && l !== 'docker0' && !l.startsWith('br-') && !l.startsWith('veth'));
    if (foreign.length > 0 || /default/.test(routes))
      throw new Error(`the kind host's network is not contained: links ${links.join(', ')}; routes:\n${routes}`);
  },
};
