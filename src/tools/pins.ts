// Every external tool the product downloads, pinned by version and SHA-256 in one table.
// Verified before use; cached by version. Add a tool: one row here.
export interface ToolPin {
  name: string;
  version: string;
  /** Release asset URL per platform key "<os>-<arch>" (node's process.platform-process.arch). */
  assets: Record<string, { url: string; sha256: string /** path of the binary inside an archive */; member?: string }>;
  /** Where the Go module proxy can build it, when a download is impossible. */
  goInstall?: string;
  /** The binary's name when it is not the tool's (the pacer's k6 is a k6). */
  binary?: string;
}

export const TOOL_PINS: Record<string, ToolPin> = {
  // Checksums from k6's release checksums file (k6-v1.4.2-checksums.txt).
  k6: {
    name: 'k6',
    version: '1.4.2',
    assets: {
      'linux-x64': {
        url: 'https://github.com/grafana/k6/releases/download/v1.4.2/k6-v1.4.2-linux-amd64.tar.gz',
        sha256: 'c827501f510265db9c3313e4164d2585a97c7a3485ed440b93f7b1cfe6facd28',
        member: 'k6-v1.4.2-linux-amd64/k6',
      },
      'linux-arm64': {
        url: 'https://github.com/grafana/k6/releases/download/v1.4.2/k6-v1.4.2-linux-arm64.tar.gz',
        sha256: '0e9515502f80edb562f12c0b12a59085c0b113c6416d728e3c2a9e5a7506cc5c',
        member: 'k6-v1.4.2-linux-arm64/k6',
      },
    },
    goInstall: 'go.k6.io/k6@v1.4.2',
  },
  // k6 1.4.2 with mesh-perf's pacer (k6ext/, the JS module k6/x/meshperf), built reproducibly
  // from this repository (scripts/build-k6-pacer.sh: go1.26.8, static, -trimpath, no VCS stamp,
  // module versions from k6ext/go.sum, so the same source gives the same bytes anywhere): these
  // sums are of k6ext/ as committed, built here; .github/workflows/release-k6-pacer.yml builds it
  // again, refuses other bytes and publishes these assets under the tag k6-pacer-v<version>. The
  // version is k6's and the pacer's (k6ext/module.go). A change to k6ext/ changes the sums.
  'k6-pacer': {
    name: 'k6-pacer',
    version: '1.4.2-pacer.0.1.0',
    binary: 'k6',
    assets: {
      'linux-x64': {
        url: 'https://github.com/org/mesh-perf-action/releases/download/k6-pacer-v1.4.2-pacer.0.1.0/k6-pacer-1.4.2-pacer.0.1.0-linux-amd64',
        sha256: '0dd41f08a56d21214d366e8d59ae130935cd7bc844303f004cc3a0c60e74c5dd',
      },
      'linux-arm64': {
        url: 'https://github.com/org/mesh-perf-action/releases/download/k6-pacer-v1.4.2-pacer.0.1.0/k6-pacer-1.4.2-pacer.0.1.0-linux-arm64',
        sha256: 'b9042eff7210880418741a2b1d1509474d279d0be3a1bea1b0904599bda8525b',
      },
    },
    goInstall: 'github.com/org/mesh-perf-action/k6ext/cmd/k6@v0.1.0',
  },
  // kind v0.31.0 (default node kindest/node:v1.35.0). SHA-256 of the release assets as published
  // in kind-linux-<arch>.sha256sum; both values also pinned by independent projects (arm64: e.g.
  // cert-manager/makefile-modules modules/tools/00_mod.mk, kind_linux_arm64_SHA256SUM).
  kind: {
    name: 'kind',
    version: '0.31.0',
    assets: {
      'linux-x64': {
        url: 'https://github.com/kubernetes-sigs/kind/releases/download/v0.31.0/kind-linux-amd64',
        sha256: 'eb244cbafcc157dff60cf68693c14c9a75c4e6e6fedaf9cd71c58117cb93e3fa',
      },
      'linux-arm64': {
        url: 'https://github.com/kubernetes-sigs/kind/releases/download/v0.31.0/kind-linux-arm64',
        sha256: '8e1014e87c34901cc422a1445866835d1e666f2a61301c27e722bdeab5a1f7e4',
      },
    },
    goInstall: 'sigs.k8s.io/kind@v0.31.0',
  },
  // Istio 1.30.3 release archive (istioctl is bin/istioctl inside it); values from the release's
  // istio-1.30.3-linux-<arch>.tar.gz.sha256 files.
  istioctl: {
    name: 'istioctl',
    version: '1.30.3',
    assets: {
      'linux-x64': {
        url: 'https://github.com/istio/istio/releases/download/1.30.3/istio-1.30.3-linux-amd64.tar.gz',
        sha256: '55ada076ba1b37af49e8a24e5e539b4abccabdb33894c923279edd293eea3993',
        member: 'istio-1.30.3/bin/istioctl',
      },
      'linux-arm64': {
        url: 'https://github.com/istio/istio/releases/download/1.30.3/istio-1.30.3-linux-arm64.tar.gz',
        sha256: '926d265818e8ab69de9f81bfe78447c3bc8f4ae32a356a39545b790bfcfd63e5',
        member: 'istio-1.30.3/bin/istioctl',
      },
    },
  },
  // Linkerd edge-26.9.1 CLI; values from the release's linkerd2-cli-edge-26.9.1-<os>-<arch>.sha256.
  linkerd: {
    name: 'linkerd',
    version: 'edge-26.9.1',
    assets: {
      'linux-x64': {
        url: 'https://github.com/linkerd/linkerd2/releases/download/edge-26.9.1/linkerd2-cli-edge-26.9.1-linux-amd64',
        sha256: '094e1de06215fbe76fc011cf62c96214f8dae0cd5a58135fb40307be88b6b176',
      },
      'linux-arm64': {
        url: 'https://github.com/linkerd/linkerd2/releases/download/edge-26.9.1/linkerd2-cli-edge-26.9.1-linux-arm64',
        sha256: 'f92eddc52dc1f3089b65fd16014cdb1bc6b07c3fd177091c365cf3d8c0ea1a8b',
      },
    },
  },
  // Gateway API v1.5.1 CRDs (config/crd/standard/*.yaml) from the Go module zip, which the module
  // proxy serves immutably (checked against sum.golang.org); SHA-256 of that zip as downloaded.
  'gateway-api': {
    name: 'gateway-api',
    version: '1.5.1',
    assets: {
      any: {
        url: 'https://proxy.golang.org/sigs.k8s.io/gateway-api/@v/v1.5.1.zip',
        sha256: '474ff932fcac6660b4dd3ac361917b2ac2cdbb10f7e815028158c4e5c4de87ae',
      },
    },
  },
};
