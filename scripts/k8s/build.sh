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
# shellcheck source=lib.sh
. "$HERE/lib.sh"

SELECT=("$@")
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
build_kubernetes kube-apiserver kube-controller-manager kube-scheduler
go_install kwok "sigs.k8s.io/kwok/cmd/kwok@v$KWOK_VERSION" "$KWOK_VERSION"
# Pseudo-versions of istio.io/api, istio.io/client-go and envoyproxy modules are not in the checksum database the proxy
# mirrors; istio's own go.sum (used by `go install pkg@version`) still pins their hashes.
GONOSUMDB="${GONOSUMDB:+$GONOSUMDB,}istio.io/api,istio.io/client-go,github.com/envoyproxy" \
go_install istioctl "istio.io/istio/istioctl/cmd/istioctl@$ISTIO_PSEUDO_VERSION" "$ISTIO_VERSION" \
  "-X istio.io/istio/pkg/version.buildVersion=$ISTIO_BUILD_TAG -X istio.io/istio/pkg/version.buildTag=$ISTIO_BUILD_TAG -X istio.io/istio/pkg/version.buildGitRevision=${ISTIO_PSEUDO_VERSION##*-} -X istio.io/istio/pkg/version.buildHub=docker.io/istio -X istio.io/istio/pkg/version.buildStatus=Clean"
