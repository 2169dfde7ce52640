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

export const TOOL_PINS: Record<string, ToolPin> = {};
