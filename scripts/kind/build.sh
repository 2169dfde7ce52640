#!/usr/bin/env bash
# Builds (once) the components of the kind tier (npm run test:kind), cached by version under
# ~/.cache/mesh-perf/tools/<name>/<version>/ beside the other tiers' (a second run only checks
# files and exits). What kind's release would download is built here from the Go module proxy
# and Debian, at the versions scripts/kind/versions.sh gives:
#   apt          docker.io (dockerd + its CLI), debootstrap, libseccomp-dev
#   kind         sigs.k8s.io/kind (the product's pinned release, reached through MESH_PERF_KIND)
#   registry     distribution/v3 (serves the node and workload images inside the tier's namespace)
#   node binaries  containerd + ctr + shim, runc (seccomp), the CNI plugins, kubeadm/kubelet/kubectl
#   node images    kube-apiserver/-controller-manager/-scheduler/-proxy, etcd, CoreDNS, kindnetd
#                  (from a git snapshot of kind: MESH_PERF_KIND_GIT), local-path-provisioner
#   rootfs       Debian root file systems (debootstrap) for the node base and the tool images
# The images themselves are assembled by the tier (test/support/kind/) with the tier's own dockerd,
# from these files, and kept in its data root. crictl, pause, k6, fortio, istioctl and the mesh
# binaries are the real tier's and the k8s tier's (run their build scripts first).
# Usage: bash scripts/kind/build.sh [name ...]   (no names: everything). Fresh machine: ~45-60 min
# on 2 cores (at nice 19).
set -euo pipefail

CACHE="${MESH_PERF_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mesh-perf}/tools"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
# shellcheck source=../k8s/versions.sh
. "$ROOT/scripts/k8s/versions.sh"
# shellcheck source=versions.sh
. "$HERE/versions.sh"
# shellcheck source=../k8s/lib.sh
. "$ROOT/scripts/k8s/lib.sh"
SELECT=("$@")
NICE=(nice -n 19 ionice -c3)
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"

install_apt() {
  selected apt || return 0
  local missing=() p
  for p in $KIND_APT_PACKAGES; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p"); done
  if [ "${#missing[@]}" -eq 0 ]; then echo "✓ apt: $KIND_APT_PACKAGES (installed)"; return 0; fi
  echo "… apt-get install ${missing[*]}"
  $SUDO "${NICE[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO "${NICE[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  # The package starts a system dockerd in the host's network namespace: the tier runs its own,
  # contained; a daemon on the host would make docker0 and NAT rules there.
  if command -v systemctl >/dev/null 2>&1; then
    $SUDO systemctl disable --now docker.service docker.socket containerd.service >/dev/null 2>&1 || true
  fi
  echo "✓ apt: ${missing[*]}"
}

# go_build NAME VERSION DIR PKG [TAGS] [CGO] [LDFLAGS]: one main package of a module downloaded at a
# version (for modules whose `go install pkg@v` needs build tags, cgo or version flags).
go_build() {
  local name="$1" v="$2" module="$3" pkg="$4" tags="${5:-}" cgo="${6:-0}" ldflags="${7:-}"
  selected "$name" || return 0
  if cached "$name" "$v"; then echo "✓ $name $v (cached)"; return 0; fi
  echo "… building $name $v from the Go module proxy ($module${pkg:+/$pkg})"
  local tmp; tmp="$(mktemp -d)"
  (
    go_env; export CGO_ENABLED="$cgo"
    cd "$tmp"; go mod init mesh-perf.local/kind-build >/dev/null 2>&1
    go mod edit -require="$module@v$v"
    go build -trimpath ${tags:+-tags "$tags"} -ldflags="-s -w $ldflags" -o "$tmp/out/$name" "$module${pkg:+/$pkg}"
  )
  install_bin "$tmp/out/$name" "$name" "$v"; rm -rf "$tmp"
}

# kindnetd from a git directory of kind holding KINDNETD_COMMIT (images/kindnetd is a module of its
# own; its dependencies come from the module proxy).
build_kindnetd() {
  local name=kindnetd v="$KINDNETD_TAG" git="${MESH_PERF_KIND_GIT:-}"
  selected "$name" || return 0
  if cached "$name" "$v"; then echo "✓ $name $v (cached)"; return 0; fi
  [ -d "$git/.git" ] && git="$git/.git"
  if [ -z "$git" ] || ! git --git-dir="$git" cat-file -e "$KINDNETD_COMMIT^{commit}" 2>/dev/null; then
    echo "· $name $v: not cached (set MESH_PERF_KIND_GIT to a git directory of github.com/kubernetes-sigs/kind holding $KINDNETD_COMMIT)"
    return 0
  fi
  echo "… building $name $v from $git"
  local tmp; tmp="$(mktemp -d)"
  git --git-dir="$git" archive "$KINDNETD_COMMIT" images/kindnetd | tar -x -C "$tmp"
  ( cd "$tmp/images/kindnetd"; go_env; go build -trimpath -ldflags="-s -w" -o "$tmp/out/kindnetd" ./cmd/kindnetd )
  install_bin "$tmp/out/kindnetd" "$name" "$v"; rm -rf "$tmp"
}

# CNI plugins: four binaries in one cache directory (cni-plugins/<v>/cni-plugins is ptp, the marker).
build_cni_plugins() {
  local name=cni-plugins v="$CNI_PLUGINS_VERSION"
  selected "$name" || return 0
  if cached "$name" "$v"; then echo "✓ $name $v (cached)"; return 0; fi
  echo "… building the CNI plugins $v (host-local, loopback, ptp, portmap)"
  local tmp; tmp="$(mktemp -d)"
  ( go_env; GOBIN="$tmp/out" go install -trimpath -ldflags="-s -w" \
      "github.com/containernetworking/plugins/plugins/ipam/host-local@v$v" \
      "github.com/containernetworking/plugins/plugins/main/loopback@v$v" \
      "github.com/containernetworking/plugins/plugins/main/ptp@v$v" \
      "github.com/containernetworking/plugins/plugins/meta/portmap@v$v" )
  local dir="$CACHE/$name/$v"; mkdir -p "$dir.tmp"; cp "$tmp/out/"* "$dir.tmp/"; cp "$tmp/out/ptp" "$dir.tmp/$name"
  rm -rf "$dir"; mv "$dir.tmp" "$dir"; rm -rf "$tmp"; echo "✓ $name $v"
}

# containerd's three binaries (kind builds them with these tags, cgo only for what they leave out).
build_containerd() {
  local v="$CONTAINERD_VERSION" b
  for b in containerd ctr containerd-shim-runc-v2; do
    # The version its Makefile stamps (the node reports containerd://2.2.0, as kindest/node does).
    go_build "$b" "$v" github.com/containerd/containerd/v2 "cmd/$b" "no_aufs,no_zfs,no_btrfs,no_devmapper" 0 \
      "-X github.com/containerd/containerd/v2/version.Version=v$v -X github.com/containerd/containerd/v2/version.Package=github.com/containerd/containerd/v2"
  done
}

# A Debian root file system as a tar (the node base or the tool images' base), cached by its
# package list: debootstrap from Debian's mirror, apt lists and caches left out.
build_rootfs() {
  local name="$1" packages="$2"
  selected "$name" || selected rootfs || return 0
  local v; v="$DEBIAN_SUITE-$(echo "$packages" | sha256sum | cut -c1-12)"
  if [ -f "$CACHE/$name/$v/$name.tar" ]; then echo "✓ $name $v (cached)"; return 0; fi
  echo "… debootstrap $DEBIAN_SUITE for $name ($packages)"
  local tmp; tmp="$(mktemp -d)"
  $SUDO "${NICE[@]}" debootstrap --variant=minbase --include="$packages" "$DEBIAN_SUITE" "$tmp/root" "$DEBIAN_MIRROR" >"$tmp/debootstrap.log" 2>&1 \
    || { tail -20 "$tmp/debootstrap.log" >&2; rm -rf "$tmp"; exit 1; }
  $SUDO rm -rf "$tmp/root/var/lib/apt/lists/"* "$tmp/root/var/cache/apt/"*.bin "$tmp/root/var/cache/apt/archives/"*.deb
  local dir="$CACHE/$name/$v"; mkdir -p "$dir.tmp"
  $SUDO tar --numeric-owner -C "$tmp/root" -cf "$dir.tmp/$name.tar" .
  rm -rf "$dir"; mv "$dir.tmp" "$dir"; $SUDO rm -rf "$tmp"; echo "✓ $name $v"
}

# kind's images/base/files and the default CNI and storage manifests (Go constants of
# pkg/build/nodeimage, with their image names filled in) from the kind module at KIND_VERSION, as
# files the tier's node image is assembled from. The image names are checked against versions.sh.
extract_kind_base() {
  local name=kind-base v="$KIND_VERSION" dir="$CACHE/kind-base/$KIND_VERSION"
  selected "$name" || return 0
  if [ -x "$dir/files/usr/local/bin/entrypoint" ] && [ -f "$dir/manifests/default-cni.yaml" ]; then echo "✓ $name $v (cached)"; return 0; fi
  local src; src="$(go_env; go mod download -json "sigs.k8s.io/kind@v$v" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
  [ -d "$src/images/base/files" ] || { echo "images/base/files not found in sigs.k8s.io/kind@v$v" >&2; exit 1; }
  rm -rf "$dir.tmp"; mkdir -p "$dir.tmp/manifests"
  cp -r "$src/images/base/files" "$dir.tmp/files"; chmod -R u+w "$dir.tmp"
  local go="$src/pkg/build/nodeimage" const image
  manifest() { # manifest GOFILE CONST OUT
    local text; text="$(sed -n "/^const $2 = \`\$/,/^\`\$/p" "$1" | sed '1d;$d')"
    for const in $(grep -o '` + [A-Za-z]* + `' <<<"$text" | awk '{print $3}' | sort -u); do
      image="$(sed -n "s/^const $const = \"\(.*\)\"\$/\1/p" "$1")"
      [ -n "$image" ] || { echo "$1: no value for $const" >&2; exit 1; }
      text="${text//\` + $const + \`/$image}"
    done
    printf '%s\n' "$text" >"$3"
  }
  manifest "$go/const_cni.go" defaultCNIManifest "$dir.tmp/manifests/default-cni.yaml"
  manifest "$go/const_storage.go" defaultStorageManifest "$dir.tmp/manifests/default-storage.yaml"
  for image in "kindest/kindnetd:$KINDNETD_TAG" "kindest/local-path-provisioner:$LOCAL_PATH_TAG" "kindest/local-path-helper:$LOCAL_PATH_HELPER_TAG"; do
    grep -q "docker.io/$image" "$dir.tmp/manifests/"*.yaml || { echo "kind v$v's manifests do not name docker.io/$image (scripts/kind/versions.sh)" >&2; exit 1; }
  done
  rm -rf "$dir"; mv "$dir.tmp" "$dir"; echo "✓ $name $v"
}

install_apt
renice -n 19 $$ >/dev/null 2>&1 || true
ionice -c3 -p $$ >/dev/null 2>&1 || true
build_rootfs node-rootfs "$NODE_BASE_PACKAGES"
extract_kind_base

go_install kind "sigs.k8s.io/kind@v$KIND_VERSION" "$KIND_VERSION"
go_install registry "github.com/distribution/distribution/v3/cmd/registry@v$REGISTRY_VERSION" "$REGISTRY_VERSION"
build_containerd
go_build runc "$RUNC_VERSION" github.com/opencontainers/runc "" seccomp 1
build_cni_plugins
KUBERNETES_VERSION="$KIND_KUBERNETES_VERSION" build_kubernetes kubeadm kubelet kubectl kube-apiserver kube-controller-manager kube-scheduler kube-proxy
go_build etcd "$ETCD_VERSION" go.etcd.io/etcd/server/v3 ""
go_install coredns "github.com/coredns/coredns@v$KIND_COREDNS_VERSION" "$KIND_COREDNS_VERSION"
build_kindnetd
go_install local-path-provisioner "github.com/rancher/local-path-provisioner@v$LOCAL_PATH_VERSION" "$LOCAL_PATH_VERSION"
