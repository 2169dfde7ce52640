# Versions of the kind tier's components (sourced by scripts/kind/build.sh; read by
# scripts/kind/components.mjs). The node image is assembled offline as kind v0.31.0's images/base
# and `kind build node-image` lay it out, at the versions that kind release's kindest/node:v1.35.0
# carries, so what the product's pinned node image runs is what runs here. kind's own version and
# its node's Kubernetes version are the product's pins (src/tools/pins.ts, the default
# kubernetes.kind.nodeImage); a test checks they agree.
KIND_VERSION=0.31.0
KIND_KUBERNETES_VERSION=1.35.0
# images/base/Dockerfile at v0.31.0: containerd, runc, CNI plugins (host-local, loopback, ptp,
# portmap). crictl is the real tier's 1.37.0 (kind's 1.33.0 is not served by the module proxy).
CONTAINERD_VERSION=2.2.0
RUNC_VERSION=1.2.9
CNI_PLUGINS_VERSION=1.8.0
# What kubeadm v1.35.0 lists (`kubeadm config images list`): etcd 3.6.6-0, CoreDNS v1.13.1; the
# sandbox image is kind's containerd config's (registry.k8s.io/pause:3.10: the real tier's pause).
ETCD_VERSION=3.6.6
KIND_COREDNS_VERSION=1.13.1
# kind's default CNI and storage images (pkg/build/nodeimage/const_cni.go, const_storage.go):
# kindnetd from kind's images/kindnetd at the commit its tag names (a module of its own that the
# module proxy does not serve: built from a git snapshot, MESH_PERF_KIND_GIT); the local-path
# provisioner at v0.0.30 (kind's Makefile pins v0.0.32, which the module proxy refuses; nothing
# the product does uses storage).
KINDNETD_COMMIT=20ccfc88
KINDNETD_TAG=v20251212-v0.29.0-alpha-105-g20ccfc88
LOCAL_PATH_VERSION=0.0.30
LOCAL_PATH_TAG=v20251212-v0.29.0-alpha-105-g20ccfc88
LOCAL_PATH_HELPER_TAG=v20251211-v0.29.0-alpha-100-g82a92c5d
# The registry inside the tier's namespace (the product pins the node image by digest).
REGISTRY_VERSION=3.1.2
# Debian packages: on the host (docker.io for dockerd and its CLI, debootstrap for the images'
# root file systems, libseccomp-dev for runc's seccomp build) and in the node base (kind's
# images/base list, without nfs-common and open-iscsi: no volume the product makes needs them).
KIND_APT_PACKAGES="docker.io debootstrap libseccomp-dev"
DEBIAN_SUITE=bookworm
DEBIAN_MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
NODE_BASE_PACKAGES="systemd,conntrack,iptables,nftables,iproute2,ethtool,util-linux,mount,kmod,libseccomp2,pigz,fuse-overlayfs,bash,ca-certificates,curl,jq,procps"
