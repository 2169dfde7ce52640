#!/usr/bin/env bash
# Builds k6 with mesh-perf's pacer (k6ext/, the JS module k6/x/meshperf) reproducibly: the Go
# toolchain, the build flags and every module version (k6ext/go.sum) are pinned, so the same
# source gives the same bytes on any machine, and the SHA-256 in src/tools/pins.ts (k6-pacer)
# can be checked against a binary built anywhere: the release workflow builds the assets with this
# script and refuses to upload ones that differ.
# Usage: scripts/build-k6-pacer.sh <linux-amd64|linux-arm64> <output file>
# Go comes from the Go module proxy when the local one is not the pinned version (GOTOOLCHAIN).
set -euo pipefail

GO_TOOLCHAIN=go1.26.8   # keep in step with src/tools/pins.ts (k6-pacer) and .github/workflows/release-k6-pacer.yml

platform="${1:?usage: $0 <linux-amd64|linux-arm64> <output>}"
out="${2:?usage: $0 <linux-amd64|linux-arm64> <output>}"
case "$platform" in
  linux-amd64) arch=amd64 ;;
  linux-arm64) arch=arm64 ;;
  *) echo "unsupported platform $platform (expected linux-amd64 or linux-arm64)" >&2; exit 2 ;;
esac

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac
mkdir -p "$(dirname "$out")"
cd "$ROOT/k6ext"
# -trimpath and no VCS stamp: no path or checkout state of this machine in the binary; the
# micro-architecture levels are Go's defaults, written out so an environment cannot change them.
env -u GOFLAGS GOTOOLCHAIN="$GO_TOOLCHAIN" CGO_ENABLED=0 GOOS=linux GOARCH="$arch" GOAMD64=v1 GOARM64=v8.0 \
  go build -mod=readonly -buildvcs=false -trimpath -ldflags='-s -w' -o "$out" ./cmd/k6
sha256sum "$out"
