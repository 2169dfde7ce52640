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

# Built from the module proxy's source with a patch applied (name | module@version | label | patch).
# act 0.2.89 has no job.workflow_repository / job.workflow_sha (GitHub's names for the repository
# and commit of the workflow file defining the running job, which the reusable workflows use to
# run the action of their own commit); the patch adds them with GitHub's meaning. Bump the label's
# suffix when the patch changes, so cached builds are rebuilt.
PATCHED_GO_TOOLS=(
  "act|github.com/nektos/act@v0.2.89|0.2.89-job-workflow.1|scripts/act-job-workflow.patch"
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

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# k6 with mesh-perf's pacer (k6ext/ in this repository), built reproducibly by
# scripts/build-k6-pacer.sh; its label is src/tools/pins.ts's k6-pacer version (a unit test holds
# them equal), and the binary is named k6 (src/tools/k6-pacer.ts).
# A cached build whose SHA-256 is not the pin's (k6ext/ changed since) is built again.
PACER_K6_VERSION="1.4.2-pacer.0.1.0"
if selected k6-pacer; then
  dir="$CACHE/k6-pacer/$PACER_K6_VERSION"
  case "$(uname -m)" in x86_64) platform=linux-amd64 key=linux-x64 ;; aarch64|arm64) platform=linux-arm64 key=linux-arm64 ;; *) echo "k6-pacer: unsupported machine $(uname -m)" >&2; exit 1 ;; esac
  pinned="$(sed -n "/'k6-pacer': {/,/goInstall/p" "$ROOT/src/tools/pins.ts" | grep -A2 "'$key'" | grep -o '[0-9a-f]\{64\}' || true)"
  if [ -x "$dir/k6" ] && [ "$(sha256sum "$dir/k6" | cut -d' ' -f1)" = "$pinned" ]; then echo "✓ k6-pacer $PACER_K6_VERSION (cached)"
  else
    echo "… building k6-pacer $PACER_K6_VERSION from k6ext/"
    bash "$ROOT/scripts/build-k6-pacer.sh" "$platform" "$dir.tmp/k6"
    rm -rf "$dir"; mv "$dir.tmp" "$dir"
    echo "✓ k6-pacer $PACER_K6_VERSION"
  fi
fi

for row in "${PATCHED_GO_TOOLS[@]}"; do
  IFS='|' read -r name module version patch <<<"$row"
  selected "$name" || continue
  dir="$CACHE/$name/$version"
  if [ -x "$dir/$name" ]; then echo "✓ $name $version (cached)"; continue; fi
  echo "… building $name $version from the Go module proxy, with $patch"
  src="$(GOFLAGS=-mod=mod go mod download -json "$module" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
  [ -d "$src" ] || { echo "could not download $module" >&2; exit 1; }
  work="$(mktemp -d)"
  cp -r "$src/." "$work/"
  chmod -R u+w "$work"
  patch -d "$work" -p1 --quiet <"$ROOT/$patch"
  mkdir -p "$dir.tmp"
  (cd "$work" && GOFLAGS=-mod=mod go build -o "$dir.tmp/$name" .)
  rm -rf "$work" "$dir"; mv "$dir.tmp" "$dir"
  echo "✓ $name $version"
done
