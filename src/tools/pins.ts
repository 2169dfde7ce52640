// Every external tool the product downloads, pinned by version and SHA-256 in one table.
// Verified before use; cached by version. Add a tool: one row here.
export interface ToolPin {
  name: string;
  version: string;
  /** Release asset URL per platform key "<os>-<arch>" (node's process.platform-process.arch). */
  assets: Record<string, { url: string; sha256: string; /** path of the binary inside an archive */ member?: string }>;
  /** Where the Go module proxy can build it, when a download is impossible. */
  goInstall?: string;
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
};
