# Helpers shared by scripts/k8s/build.sh and scripts/real/build.sh (sourced; needs CACHE,
# GOPROXY_URL, KUBERNETES_VERSION and a SELECT array). Each tool lands in
# $CACHE/<name>/<version>/<name>, moved into place only once complete.
selected() {
  [ "${#SELECT[@]}" -eq 0 ] && return 0
  local s; for s in "${SELECT[@]}"; do [ "$s" = "$1" ] && return 0; done
  return 1
}
cached() { [ -x "$CACHE/$1/$2/$1" ]; }

# Go builds share one module cache; build in a scratch module so nothing touches the repo's files.
go_env() { export GOFLAGS=-mod=mod GOTOOLCHAIN=local CGO_ENABLED=0; }

# build_kubernetes NAME...: commands of k8s.io/kubernetes at KUBERNETES_VERSION (cmd/NAME).
build_kubernetes() {
  local v="$KUBERNETES_VERSION" staging="v0.${KUBERNETES_VERSION#1.}"
  local bins=("$@") missing=() b
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

