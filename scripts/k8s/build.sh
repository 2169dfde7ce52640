#!/usr/bin/env bash
# Builds (once) the real components the Kubernetes tests run against, cached by version under
# ~/.cache/mesh-perf/tools/<name>/<version>/<name>, so a second run only checks files and exits.
#   kube-apiserver, kube-controller-manager, kube-scheduler  (module k8s.io/kubernetes; its k8s.io/*
#       staging modules are not served at v0.0.0, so they are replaced by their published v0.X.Y)
#   kwok                                                     (fake nodes + pods, exec/usage emulation)
#   istioctl                                                 (release tags are not on the module proxy:
#       a pseudo-version of the release tag's commit)
#   etcd                                                     (Debian's etcd-server package)
#   gateway-api                                              (CRDs: the pinned Go module zip, SHA-256 checked)
# Usage: bash scripts/k8s/build.sh [name ...]   (no names: everything). Fresh machine: ~10-15 min.
set -euo pipefail

CACHE="${MESH_PERF_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mesh-perf}/tools"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=versions.sh
. "$HERE/versions.sh"

SELECT=("$@")
selected() {
  [ "${#SELECT[@]}" -eq 0 ] && return 0
  local s; for s in "${SELECT[@]}"; do [ "$s" = "$1" ] && return 0; done
  return 1
}
cached() { [ -x "$CACHE/$1/$2/$1" ]; }

# Go builds share one module cache; build in a scratch module so nothing touches the repo's files.
go_env() { export GOFLAGS=-mod=mod GOTOOLCHAIN=local CGO_ENABLED=0; }

build_kubernetes() {
  local v="$KUBERNETES_VERSION" staging="v0.${KUBERNETES_VERSION#1.}"
  local bins=(kube-apiserver kube-controller-manager kube-scheduler) missing=() b
  for b in "${bins[@]}"; do
    if selected "$b" && ! cached "$b" "$v"; then missing+=("$b"); fi
  done
  for b in "${bins[@]}"; do selected "$b" && cached "$b" "$v" && echo "✓ $b $v (cached)"; done
  [ "${#missing[@]}" -eq 0 ] && return 0
  echo "… building ${missing[*]} $v from k8s.io/kubernetes (staging modules at $staging; ~10 min on 2 cores)"
  local work; work="$(mktemp -d)"
  (
    cd "$work"; go_env
    go mod init mesh-perf.local/k8s-build >/dev/null 2>&1
    go mod edit -require="k8s.io/kubernetes@v$v"
    # Each `k8s.io/x => ./staging/src/k8s.io/x` replace of the upstream go.mod becomes `k8s.io/x => k8s.io/x vX`.
    curl -fsSL "${GOPROXY_URL}/k8s.io/kubernetes/@v/v$v.mod" \
      | sed -n 's#^[[:space:]]*\(k8s\.io/[a-z0-9-]*\) => \./staging/.*#\1#p' \
      | while read -r mod; do go mod edit -replace="$mod=$mod@$staging"; done
    mkdir -p out
    local pkgs=(); for b in "${missing[@]}"; do pkgs+=("k8s.io/kubernetes/cmd/$b"); done
    go build -trimpath -ldflags="-s -w -X k8s.io/component-base/version.gitVersion=v$v -X k8s.io/component-base/version.gitMajor=${v%%.*} -X k8s.io/component-base/version.gitMinor=$(echo "$v" | cut -d. -f2)" -o out/ "${pkgs[@]}"
  )
  for b in "${missing[@]}"; do install_bin "$work/out/$b" "$b" "$v"; done
  rm -rf "$work"
}

# go install NAME PKG VERSION: builds one Go main package at a version into the cache.
go_install() {
  local name="$1" pkg="$2" v="$3" ldflags="${4:-}"
  selected "$name" || return 0
  if cached "$name" "$v"; then echo "✓ $name $v (cached)"; return 0; fi
  echo "… building $name $v from the Go module proxy ($pkg)"
  local tmp; tmp="$(mktemp -d)"
  ( go_env; GOBIN="$tmp" go install -trimpath -ldflags="-s -w $ldflags" "$pkg" )
  install_bin "$tmp/$(basename "${pkg%@*}")" "$name" "$v"
  rm -rf "$tmp"
}

install_bin() {
  local src="$1" name="$2" v="$3" dir="$CACHE/$2/$3"
  mkdir -p "$dir.tmp"; cp "$src" "$dir.tmp/$name"; chmod +x "$dir.tmp/$name"
  rm -rf "$dir"; mv "$dir.tmp" "$dir"
  echo "✓ $name $v"
}

install_etcd() {
  selected etcd || return 0
  if command -v etcd >/dev/null 2>&1 || [ -x /usr/bin/etcd ]; then
    echo "✓ etcd $(etcd --version 2>/dev/null | sed -n 's/^etcd Version: //p') (Debian etcd-server)"; return 0
  fi
  echo "… installing etcd from Debian's etcd-server"
  local sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends etcd-server >/dev/null
  # The package starts a system etcd on :2379; tests run their own on random ports, so stop it.
  if command -v systemctl >/dev/null 2>&1; then $sudo systemctl disable --now etcd >/dev/null 2>&1 || true; fi
  echo "✓ etcd $(etcd --version | sed -n 's/^etcd Version: //p')"
}

fetch_gateway_api() {
  selected gateway-api || return 0
  local dir="$CACHE/gateway-api/$GATEWAY_API_VERSION" file
  file="$dir/gateway-api.zip"
  if [ -f "$file" ] && echo "$GATEWAY_API_ZIP_SHA256  $file" | sha256sum -c --status; then
    echo "✓ gateway-api $GATEWAY_API_VERSION (cached)"; return 0
  fi
  echo "… fetching gateway-api $GATEWAY_API_VERSION CRDs (Go module zip)"
  mkdir -p "$dir"
  curl -fsSL "${GOPROXY_URL}/sigs.k8s.io/gateway-api/@v/v$GATEWAY_API_VERSION.zip" -o "$file.partial"
  echo "$GATEWAY_API_ZIP_SHA256  $file.partial" | sha256sum -c --status || { rm -f "$file.partial"; echo "gateway-api zip: SHA-256 mismatch" >&2; exit 1; }
  mv "$file.partial" "$file"
  echo "✓ gateway-api $GATEWAY_API_VERSION"
}

install_etcd
fetch_gateway_api
build_kubernetes
go_install kwok "sigs.k8s.io/kwok/cmd/kwok@v$KWOK_VERSION" "$KWOK_VERSION"
# Pseudo-versions of istio.io/api, istio.io/client-go and envoyproxy modules are not in the checksum database the proxy
# mirrors; istio's own go.sum (used by `go install pkg@version`) still pins their hashes.
GONOSUMDB="${GONOSUMDB:+$GONOSUMDB,}istio.io/api,istio.io/client-go,github.com/envoyproxy" \
go_install istioctl "istio.io/istio/istioctl/cmd/istioctl@$ISTIO_PSEUDO_VERSION" "$ISTIO_VERSION" \
  "-X istio.io/istio/pkg/version.buildVersion=$ISTIO_BUILD_TAG -X istio.io/istio/pkg/version.buildTag=$ISTIO_BUILD_TAG -X istio.io/istio/pkg/version.buildGitRevision=${ISTIO_PSEUDO_VERSION##*-} -X istio.io/istio/pkg/version.buildHub=docker.io/istio -X istio.io/istio/pkg/version.buildStatus=Clean"
