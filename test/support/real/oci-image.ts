// Writes a FROM-scratch OCI image archive (an OCI layout in a tar) that `ctr images import` takes:
// one layer of the given files, directories and symlinks, a config with the entrypoint, and an
// index naming the image. No registry, no daemon, reproducible (every mtime 0). The real-node
// tier's images are static or self-contained binaries (with their shared libraries copied in).
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';

export type LayerEntry =
  | { kind: 'file'; path: string; from: string }
  | { kind: 'data'; path: string; data: Buffer | string; mode?: number }
  | { kind: 'dir'; path: string; mode?: number }
  | { kind: 'symlink'; path: string; target: string };

export interface ImageSpec {
  /** Full reference, e.g. mesh-perf.local/fortio/fortio:1.66.0. */
  ref: string;
  /** More names for the same image (another tag). */
  aliases?: string[];
  entrypoint: string[];
  entries: LayerEntry[];
  env?: string[];
  user?: string;
}

const BLOCK = 512;

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

/** One ustar header; names over 100 bytes are split into prefix and name at a slash. */
function header(name: string, size: number, mode: number, type: '0' | '2' | '5', linkname = ''): Buffer {
  const buf = Buffer.alloc(BLOCK);
  let prefix = '';
  if (Buffer.byteLength(name) > 100) {
    const cut = name.lastIndexOf('/', 154);
    if (cut < 0 || Buffer.byteLength(name.slice(cut + 1)) > 100) throw new Error(`tar: path too long: ${name}`);
    prefix = name.slice(0, cut);
    name = name.slice(cut + 1);
  }
  buf.write(name, 0, 100);
  buf.write(octal(mode, 8), 100);
  buf.write(octal(0, 8), 108); // uid
  buf.write(octal(0, 8), 116); // gid
  buf.write(octal(size, 12), 124);
  buf.write(octal(0, 12), 136); // mtime
  buf.write('        ', 148); // checksum placeholder
  buf.write(type, 156);
  buf.write(linkname, 157, 100);
  buf.write('ustar\0', 257);
  buf.write('00', 263);
  buf.write(prefix, 345, 155);
  let sum = 0;
  for (const byte of buf) sum += byte;
  buf.write(octal(sum, 7), 148);
  buf[155] = 0x20;
  return buf;
}

function pad(data: Buffer): Buffer[] {
  const rest = data.length % BLOCK;
  return rest === 0 ? [data] : [data, Buffer.alloc(BLOCK - rest)];
}

/** A tar of entries, parent directories added first (each once). */
export function tarOf(entries: { path: string; type: '0' | '2' | '5'; mode: number; data?: Buffer; link?: string }[]): Buffer {
  const parts: Buffer[] = [];
  const dirs = new Set<string>();
  const addDir = (path: string, mode = 0o755) => {
    if (dirs.has(path)) return;
    dirs.add(path);
    parts.push(header(`${path}/`, 0, mode, '5'));
  };
  for (const entry of entries) {
    const segments = entry.path.split('/');
    for (let i = 1; i < segments.length; i++) addDir(segments.slice(0, i).join('/'));
    if (entry.type === '5') addDir(entry.path, entry.mode);
    else if (entry.type === '2') parts.push(header(entry.path, 0, entry.mode, '2', entry.link));
    else parts.push(header(entry.path, entry.data!.length, entry.mode, '0'), ...pad(entry.data!));
  }
  parts.push(Buffer.alloc(2 * BLOCK));
  return Buffer.concat(parts);
}

const sha256 = (data: Buffer) => `sha256:${createHash('sha256').update(data).digest('hex')}`;

/** The image's layer: the entries plus /tmp, /etc/passwd and /etc/group, so non-root users resolve. */
function layerOf(spec: ImageSpec): Buffer {
  const base: LayerEntry[] = [
    { kind: 'dir', path: 'tmp', mode: 0o1777 },
    { kind: 'data', path: 'etc/passwd', data: 'root:x:0:0:root:/:/sbin/nologin\nnobody:x:65534:65534:nobody:/:/sbin/nologin\n' },
    { kind: 'data', path: 'etc/group', data: 'root:x:0:\nnobody:x:65534:\n' },
  ];
  return tarOf(
    [...base, ...spec.entries].map((e) => {
      const path = e.path.replace(/^\/+/, '');
      if (e.kind === 'dir') return { path, type: '5' as const, mode: e.mode ?? 0o755 };
      if (e.kind === 'symlink') return { path, type: '2' as const, mode: 0o777, link: e.target };
      if (e.kind === 'data') return { path, type: '0' as const, mode: e.mode ?? 0o644, data: Buffer.from(e.data) };
      return { path, type: '0' as const, mode: statSync(e.from).mode & 0o777, data: readFileSync(e.from) };
    }),
  );
}

/** The OCI layout archive of the image, and its manifest digest. */
export function ociArchive(spec: ImageSpec): { archive: Buffer; digest: string } {
  const layer = layerOf(spec);
  const config = Buffer.from(
    JSON.stringify({
      architecture: 'amd64',
      os: 'linux',
      created: '1970-01-01T00:00:00Z',
      config: {
        Entrypoint: spec.entrypoint,
        Env: spec.env ?? ['PATH=/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'],
        WorkingDir: '/',
        ...(spec.user ? { User: spec.user } : {}),
      },
      rootfs: { type: 'layers', diff_ids: [sha256(layer)] },
      history: [{ created: '1970-01-01T00:00:00Z', created_by: 'mesh-perf real-node tier' }],
    }),
  );
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: sha256(config), size: config.length },
      layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar', digest: sha256(layer), size: layer.length }],
    }),
  );
  const index = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.index.v1+json',
      manifests: [spec.ref, ...(spec.aliases ?? [])].map((ref) => ({
        mediaType: 'application/vnd.oci.image.manifest.v1+json',
        digest: sha256(manifest),
        size: manifest.length,
        platform: { architecture: 'amd64', os: 'linux' },
        annotations: { 'io.containerd.image.name': ref, 'org.opencontainers.image.ref.name': ref.slice(ref.lastIndexOf(':') + 1) },
      })),
    }),
  );
  const blob = (data: Buffer) => ({ path: `blobs/sha256/${sha256(data).slice(7)}`, type: '0' as const, mode: 0o644, data });
  const archive = tarOf([
    { path: 'oci-layout', type: '0', mode: 0o644, data: Buffer.from('{"imageLayoutVersion":"1.0.0"}') },
    { path: 'index.json', type: '0', mode: 0o644, data: index },
    blob(layer),
    blob(config),
    blob(manifest),
  ]);
  return { archive, digest: sha256(manifest) };
}
