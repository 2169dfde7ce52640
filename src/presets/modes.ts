// Mode definitions the presets share. Each mesh mode also says how the `local` platform should
// approximate it (one forwarding-proxy hop per proxy on the request path), so a preset can be
// tried on a laptop with `--platform local` before it runs on a cluster. The local numbers
// measure our own proxy, not the mesh: they prove the pipeline and formats, not mesh costs.
export type RawMode = Record<string, unknown> & { name: string };

/** Proxies between client and server for each mesh mode (client side + server side). */
export const PROXY_HOPS = {
  baseline: 0,
  'istio-sidecar': 2, // client sidecar + server sidecar
  linkerd: 2, // client linkerd2-proxy + server linkerd2-proxy
  'istio-ambient': 2, // client-node ztunnel + server-node ztunnel
  'istio-waypoint': 3, // ztunnel → waypoint → ztunnel
} as const;

export type PresetMesh = keyof typeof PROXY_HOPS;

/** A mode served under `mesh`, named `name` (defaults to the mesh kind). */
export function meshMode(mesh: PresetMesh, name: string = mesh): RawMode {
  return { name, mesh, local: { hops: PROXY_HOPS[mesh] } };
}
