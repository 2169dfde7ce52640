#!/usr/bin/env bash
# Builds the real components the test suite and benchmarks run against, pinned by version and
# cached under ~/.cache/mesh-perf/tools/<name>/<version>/ so a second run starts in seconds.
# On a fresh machine the first run takes minutes (Go builds from the module proxy).
# Usage: scripts/install-test-tools.sh [name ...]   (no names: everything)
set -euo pipefail

CACHE="${MESH_PERF_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mesh-perf}/tools"

# name | go package@version | cached version label
GO_TOOLS=(
  "k6|go.k6.io/k6@v1.4.2|1.4.2"
  "fortio|fortio.org/fortio@v1.66.0|1.66.0"
  "vegeta|github.com/tsenart/vegeta/v12@v12.13.0|12.13.0"
  "actionlint|github.com/rhysd/actionlint/cmd/actionlint@v1.7.12|1.7.12"
)

wanted() { [ "$#" -eq 0 ] && return 0; return 1; }
selected() {
  local name="$1"; shift
  [ "${#SELECT[@]}" -eq 0 ] && return 0
  for s in "${SELECT[@]}"; do [ "$s" = "$name" ] && return 0; done
  return 1
}
SELECT=("$@")

for row in "${GO_TOOLS[@]}"; do
  IFS='|' read -r name pkg version <<<"$row"
  selected "$name" || continue
  dir="$CACHE/$name/$version"
  if [ -x "$dir/$name" ]; then echo "✓ $name $version (cached)"; continue; fi
  echo "… building $name $version from the Go module proxy"
  mkdir -p "$dir.tmp"
  GOBIN="$dir.tmp" GOFLAGS=-mod=mod go install "$pkg"
  bin=$(ls "$dir.tmp" | head -n1)
  [ "$bin" = "$name" ] || mv "$dir.tmp/$bin" "$dir.tmp/$name"
  rm -rf "$dir"; mv "$dir.tmp" "$dir"
  echo "✓ $name $version"
done
