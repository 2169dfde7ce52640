# Versions of the real-node tier's components (sourced by scripts/real/build.sh; read by
# scripts/real/components.ts). The Kubernetes and Istio versions are scripts/k8s/versions.sh's:
# the node runs what the control plane and istioctl of the k8s tier are built from.
CRICTL_VERSION=1.37.0
COREDNS_VERSION=1.15.0
# kubernetes' build/pause/linux/pause.c, compiled static: the pods' sandbox and the node's init.
PAUSE_VERSION=3.10
# Debian 12 packages (apt): the container runtime and the node's network tools; busybox-static
# gives the k6 client image the shell and coreutils the product's exec commands use; nftables
# gives the tests' nft (the leak counter's table, and the host's tables compared before and after).
APT_PACKAGES="containerd runc containernetworking-plugins iptables conntrack busybox-static nftables"
# Binaries that only come from git snapshots of their repositories (the Go module proxy does not
# serve them, or they are Rust): taken from MESH_PERF_REAL_BIN (a directory of NAME.xz), checked
# against these SHA-256 sums of the unpacked binary, and copied into the cache once.
# name | version (commit) | SHA-256 | repository
PREBUILT=(
  "ztunnel|62d826530e5c|52cdefb558f5c9f7a671932876a52cca829638e4bac0a5dc8328cc8db15260a0|github.com/istio/ztunnel"
  "linkerd2-proxy|29637b64f6ce|9fcd45b456403de96ba99fd3f84b4145f67d72fed444bf8800fbf8e10250b90c|github.com/linkerd/linkerd2-proxy"
  "linkerd-policy-controller|b24cd4059841|206ebbd961259634f8980adb047d9cacf239c891305f78a2bd1d033491d5cf8f|github.com/linkerd/linkerd2"
  "linkerd-controller|b24cd4059841|0429cc07e9b11cbc96aaa5ccaefd6f9c420ba36b69dd26637843f4ac43bd5d70|github.com/linkerd/linkerd2"
  "linkerd-cli|b24cd4059841|1d5fbb52a0379c49f3e61087edc88e203d8ecc724d319ffaac76865b488ba95c|github.com/linkerd/linkerd2"
  "linkerd-proxy-init|183e791d99dc|5573ed59ed24db5777c003c65ad1538782eab5d0beaebcf17f5c755dbafc6615|github.com/linkerd/linkerd2-proxy-init"
  "linkerd-cni-plugin|183e791d99dc|f21608f290cba11353b682bcf4b72c591c28bf7043652b4a8822b072f78b5fb5|github.com/linkerd/linkerd2-proxy-init"
)
# Built here from a git snapshot of linkerd2 at the commit of the Linkerd binaries above (a small Go
# main; its dependencies come from the Go module proxy, which does not serve linkerd2 itself):
# proxy-identity is the Linkerd proxy image's entrypoint (it writes the proxy's key and CSR, then
# execs linkerd2-proxy). MESH_PERF_LINKERD2_GIT names a git directory of github.com/linkerd/linkerd2
# holding the commit.
LINKERD2_COMMIT=b24cd4059841f8cee2fb7a9c2ac23a693c583579
