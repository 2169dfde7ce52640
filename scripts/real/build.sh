#!/usr/bin/env bash
# Builds (once) the components of the real-node tier (npm run test:real), cached by version under
# ~/.cache/mesh-perf/tools/<name>/<version>/<name> beside the k8s tier's, so a second run only
# checks files and exits:
#   apt        containerd, runc, CNI plugins, iptables, conntrack, busybox-static, nftables (Debian 12)
#   kubelet kube-proxy kubectl   k8s.io/kubernetes at the k8s tier's version, built like its apiserver
#   crictl coredns               the Go module proxy
#   pause                        kubernetes' build/pause/linux/pause.c, static (sandbox image, node init)
#   pilot-discovery istio-cni install-cni   istio.io/istio at the k8s tier's pseudo-version (istiod, the CNI agent)
#   prebuilt   ztunnel and the Linkerd pieces from $MESH_PERF_REAL_BIN/*.xz, SHA-256 checked (versions.sh)
#   linkerd-proxy-identity       linkerd2's proxy-identity from a git snapshot ($MESH_PERF_LINKERD2_GIT, ~15 s)
# The control plane, istioctl, k6 and fortio come from scripts/k8s/build.sh and
# scripts/install-test-tools.sh (run first when missing). Builds run at nice 19 / idle I/O.
# Usage: bash scripts/real/build.sh [name ...]   (no names: everything). Fresh machine: ~15-20 min.
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

install_apt() {
  selected apt || return 0
  local missing=() p
  for p in $APT_PACKAGES; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p"); done
  if [ "${#missing[@]}" -eq 0 ]; then echo "✓ apt: $APT_PACKAGES (installed)"; return 0; fi
  echo "… apt-get install ${missing[*]}"
  local sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo "${NICE[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo "${NICE[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  echo "✓ apt: ${missing[*]}"
}

build_pause() {
  selected pause || return 0
  if cached pause "$PAUSE_VERSION"; then echo "✓ pause $PAUSE_VERSION (cached)"; return 0; fi
  local src; src="$(go_env; go mod download -json "k8s.io/kubernetes@v$KUBERNETES_VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')/build/pause/linux/pause.c"
  [ -f "$src" ] || { echo "pause.c not found in k8s.io/kubernetes@v$KUBERNETES_VERSION" >&2; exit 1; }
  local tmp; tmp="$(mktemp -d)"
  "${NICE[@]}" gcc -Os -static -DVERSION="$PAUSE_VERSION" -o "$tmp/pause" "$src" && strip "$tmp/pause"
  install_bin "$tmp/pause" pause "$PAUSE_VERSION"; rm -rf "$tmp"
}

# The Istio module at the k8s tier's pseudo-version; its checksum lookups for these modules answer 404.
istio_install() {
  GONOSUMDB="${GONOSUMDB:+$GONOSUMDB,}istio.io/api,istio.io/client-go,github.com/envoyproxy,github.com/agentgateway" \
    go_install "$1" "istio.io/istio/$2@$ISTIO_PSEUDO_VERSION" "$ISTIO_VERSION" \
    "-X istio.io/istio/pkg/version.buildVersion=$ISTIO_BUILD_TAG -X istio.io/istio/pkg/version.buildTag=$ISTIO_BUILD_TAG -X istio.io/istio/pkg/version.buildGitRevision=${ISTIO_PSEUDO_VERSION##*-}"
}

install_prebuilt() {
  local row name version sum repo dir="${MESH_PERF_REAL_BIN:-}"
  for row in "${PREBUILT[@]}"; do
    IFS='|' read -r name version sum repo <<<"$row"
    selected "$name" || { selected prebuilt || continue; }
    if cached "$name" "$version"; then echo "✓ $name $version (cached)"; continue; fi
    if [ -z "$dir" ] || [ ! -f "$dir/$name.xz" ]; then
      echo "· $name $version: not cached and no ${dir:+$dir/}$name.xz (set MESH_PERF_REAL_BIN to a directory with $name.xz built from $repo at $version)"
      continue
    fi
    local tmp; tmp="$(mktemp -d)"
    xz -dc "$dir/$name.xz" > "$tmp/$name"
    if ! echo "$sum  $tmp/$name" | sha256sum -c --status; then
      rm -rf "$tmp"; echo "$dir/$name.xz: SHA-256 of the unpacked binary is not $sum (scripts/real/versions.sh)" >&2; exit 1
    fi
    install_bin "$tmp/$name" "$name" "$version"; rm -rf "$tmp"
  done
}

# proxy-identity (the Linkerd proxy image's entrypoint) from a git directory of linkerd2 at
# LINKERD2_COMMIT: only its go.mod, go.sum, pkg/ and proxy-identity/ are taken out; the Go module
# proxy serves every dependency but linkerd2 itself.
build_proxy_identity() {
  local name=linkerd-proxy-identity v="${LINKERD2_COMMIT:0:12}" git="${MESH_PERF_LINKERD2_GIT:-}"
  selected "$name" || return 0
  if cached "$name" "$v"; then echo "✓ $name $v (cached)"; return 0; fi
  [ -d "$git/.git" ] && git="$git/.git"
  if [ -z "$git" ] || ! git --git-dir="$git" cat-file -e "$LINKERD2_COMMIT^{commit}" 2>/dev/null; then
    echo "· $name $v: not cached (set MESH_PERF_LINKERD2_GIT to a git directory of github.com/linkerd/linkerd2 holding $LINKERD2_COMMIT)"
    return 0
  fi
  echo "… building $name $v from $git"
  local tmp; tmp="$(mktemp -d)"
  git --git-dir="$git" archive "$LINKERD2_COMMIT" go.mod go.sum pkg proxy-identity | tar -x -C "$tmp"
  ( cd "$tmp"; go_env; go build -trimpath -ldflags="-s -w" -o "$tmp/out/proxy-identity" ./proxy-identity )
  install_bin "$tmp/out/proxy-identity" "$name" "$v"; rm -rf "$tmp"
}

install_apt
# Builds share the machine: every compiler below runs at nice 19.
renice -n 19 $$ >/dev/null 2>&1 || true
ionice -c3 -p $$ >/dev/null 2>&1 || true
build_kubernetes kubelet kube-proxy kubectl
build_pause
go_install crictl "sigs.k8s.io/cri-tools/cmd/crictl@v$CRICTL_VERSION" "$CRICTL_VERSION"
go_install coredns "github.com/coredns/coredns@v$COREDNS_VERSION" "$COREDNS_VERSION"
istio_install pilot-discovery pilot/cmd/pilot-discovery
istio_install istio-cni cni/cmd/istio-cni
istio_install install-cni cni/cmd/install-cni
install_prebuilt
build_proxy_identity
