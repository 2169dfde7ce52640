// What defines what a mode measures, and its fingerprint: the mode's own settings with the
// run-wide settings it runs under made explicit (its echo image or server manifests with their
// content's hash, its mesh and that mesh's version and values, the pods' resources), so two runs'
// modes with the same fingerprint ran the same setup whatever their configs looked like. Recorded
// per mode in results (run.provenance.settings). Works on the stored config (results.json's
// `config`: the validated config as JSON), so it reads defensively. Pure.
import { sha256Hex } from '../util/sha256.ts';
import { MESH_KINDS } from './schema.ts';

type Raw = Record<string, unknown>;

const record = (value: unknown): Raw => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Raw) : {});

/** The mesh a stored mode runs under: its mesh, its name when that is a mesh, or for an arm its mode's name. */
export function storedMeshOf(mode: Raw): string | undefined {
  const known = (name: unknown) => ((MESH_KINDS as readonly unknown[]).includes(name) ? (name as string) : undefined);
  return known(mode.mesh) ?? known(mode.name) ?? known(record(mode.arm).of);
}

/**
 * Everything that defines what `modeName` measures in a run of `config`, with `files` (path →
 * SHA-256) standing in for the content of the files it names. undefined: no such mode.
 */
export function modeSettings(config: Raw, modeName: string, files: Record<string, string> = {}): Raw | undefined {
  const modes = Array.isArray(config.modes) ? config.modes.map(record) : [];
  const mode = modes.find((m) => m.name === modeName);
  if (!mode) return undefined;
  const platform = config.platform;
  const out: Raw = { platform };
  const mesh = storedMeshOf(mode);
  if (mesh) out.mesh = mesh;
  for (const key of ['url', 'grpc', 'env', 'local'] as const) if (mode[key] !== undefined) out[key] = mode[key];
  if (platform !== 'kind' && platform !== 'kubeconfig') return out;
  const kubernetes = record(config.kubernetes);
  const server = typeof mode.serverManifests === 'string' ? mode.serverManifests : record(kubernetes.manifests).server;
  if (typeof server === 'string') out.serverManifests = { path: server, sha256: files[server] ?? 'not recorded' };
  else out.echoImage = mode.echoImage ?? record(kubernetes.images).echo;
  for (const key of ['namespaceLabels', 'namespaceAnnotations'] as const) if (mode[key] !== undefined) out[key] = mode[key];
  if (mesh?.startsWith('istio-')) out.istio = { ...record(kubernetes.istio), ...record(mode.istio) };
  if (mesh === 'linkerd') out.linkerd = kubernetes.linkerd;
  out.resources = kubernetes.resources;
  out.replicas = kubernetes.replicas;
  return out;
}

/** Per mode of the config: the first 16 hex digits of the SHA-256 of its settings as canonical JSON. */
export function settingsFingerprints(config: Raw, files: Record<string, string> = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const mode of Array.isArray(config.modes) ? config.modes.map(record) : []) {
    if (typeof mode.name !== 'string') continue;
    const settings = modeSettings(config, mode.name, files);
    if (settings) out[mode.name] = sha256Hex(canonicalJson(settings)).slice(0, 16);
  }
  return out;
}

/** JSON with sorted keys and no undefined members: equal settings give equal text whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .filter((k) => (value as Raw)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Raw)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** The files a config names, as it names them: each profile's k6 script, the server and client manifests (run-wide and per mode). */
export function referencedFiles(config: Raw): string[] {
  const out: string[] = [];
  const add = (value: unknown) => {
    if (typeof value === 'string' && value !== '') out.push(value);
  };
  for (const profile of Array.isArray(config.profiles) ? config.profiles.map(record) : []) add(profile.script);
  const manifests = record(record(config.kubernetes).manifests);
  add(manifests.server);
  add(manifests.client);
  for (const mode of Array.isArray(config.modes) ? config.modes.map(record) : []) add(mode.serverManifests);
  return [...new Set(out)].sort();
}
