// The node's network: a bridge holding the node IP (the API server's address and the pods' gateway),
// forwarding and bridge netfilter on (kube-proxy's Service rules see pod-to-pod traffic on the
// bridge), all inside the node's network namespace. There is no default route and no interface to
// the host: a packet for anywhere else has nowhere to go. Gone with the namespace; nothing to undo.
// The Service range is routed to the bridge: a connection the node itself opens to a ClusterIP
// (istio-cni's plugin asks the API server through the kubernetes Service) needs a route before
// kube-proxy's DNAT rewrites it; without a default route it failed "network is unreachable".
import { BRIDGE, NODE_IP, POD_CIDR, SERVICE_CIDR } from '../layout.ts';
import type { Action } from '../node.ts';

export const network: Action = {
  name: 'network',
  async up(node) {
    await node.sh(
      `ip link add ${BRIDGE} type bridge
ip addr add ${NODE_IP}/${POD_CIDR.split('/')[1]} dev ${BRIDGE}
ip link set ${BRIDGE} up
ip route add ${SERVICE_CIDR} dev ${BRIDGE} src ${NODE_IP}
sysctl -qw net.ipv4.ip_forward=1 net.bridge.bridge-nf-call-iptables=1 net.bridge.bridge-nf-call-ip6tables=1`,
    );
    const links = (await node.sh('ip -br link'))
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split(/\s+/)[0]);
    const routes = (await node.sh('ip route show table all | grep -v "^local\\|^broadcast\\|^multicast\\|fe80\\|^ff00" || true')).trim();
    if (links.join(' ') !== `lo ${BRIDGE}` || /default/.test(routes))
      throw new Error(`the node's network is not contained: links ${links.join(', ')}; routes:\n${routes}`);
  },
};
