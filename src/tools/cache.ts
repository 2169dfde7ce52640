// Where pinned tools are cached: <cache>/tools/<name>/<version>/<binary>, shared by the CLI, the
// action (on runners too: $HOME/.cache/mesh-perf, not the runner's tool cache) and
// scripts/install-test-tools.sh. Only the setup sub-action defaults to the runner's tool cache.
import { homedir } from 'node:os';
import { join } from 'node:path';

export function toolCacheRoot(): string {
  const base = process.env.MESH_PERF_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'mesh-perf');
  return join(base, 'tools');
}

/** `binary` defaults to the tool's name; the pacer's k6 (tool k6-pacer) is a binary named k6. */
export function cachedToolPath(name: string, version: string, binary = name): string {
  return join(toolCacheRoot(), name, version, binary);
}
