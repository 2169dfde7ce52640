# Versions of the locally built Kubernetes test components (sourced by build.sh; read by
# test/support/k8s/tools.ts). Bump a version here and the next build.sh run builds it once.
KUBERNETES_VERSION=1.36.3
KWOK_VERSION=0.8.0
# The module proxy serves no Istio release tag (they lack the "v" prefix) and only a few commits;
# b01690e6db7d is master 48 commits after the release-1.30 branch cut (2026-04-23), i.e. 1.31-dev.
# Local tests only; the product downloads a pinned istioctl release (src/tools/pins.ts).
ISTIO_VERSION=1.31-dev-b01690e6db7d
ISTIO_PSEUDO_VERSION=v0.0.0-20260423205519-b01690e6db7d
ISTIO_BUILD_TAG=1.31-dev
GOPROXY_URL="${GOPROXY_URL:-https://proxy.golang.org}"
# Gateway API CRDs for waypoint tests: the Go module zip (same pin as src/tools/pins.ts).
GATEWAY_API_VERSION=1.5.1
GATEWAY_API_ZIP_SHA256=474ff932fcac6660b4dd3ac361917b2ac2cdbb10f7e815028158c4e5c4de87ae
