// Pushes OCI layout archives (../real/oci-image.ts writes them) to a registry over the registry
// HTTP API: each blob unless the registry has it, then the manifest under every tag the archive's
// index names. Run inside the kind host's network namespace, where the registry is:
//   nsenter --net=… node --import tsx push-oci.ts <archive>…   → prints {"<ref>": "sha256:…", …}
import { readFileSync } from 'node:fs';

interface Entry {
  name: string;
  data: Buffer;
}

/** The regular files of a ustar archive (pax headers skipped: the blobs carry no xattrs). */
export function tarFiles(archive: Buffer): Entry[] {
  const out: Entry[] = [];
  let offset = 0;
  while (offset + 512 <= archive.length) {
    const header = archive.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break;
    const field = (start: number, length: number) =>
      header
        .subarray(start, start + length)
        .toString('utf8')
        .replace(/\0.*$/s, '');
    const name = [field(345, 155), field(0, 100)].filter(Boolean).join('/');
    const size = Number.parseInt(field(124, 12).trim() || '0', 8);
    const type = field(156, 1) || '0';
    const body = offset + 512;
    if (type === '0') out.push({ name, data: archive.subarray(body, body + size) });
    offset = body + Math.ceil(size / 512) * 512;
  }
  return out;
}

async function check(response: Response, what: string): Promise<Response> {
  if (!response.ok) throw new Error(`${what}: HTTP ${response.status} ${(await response.text()).slice(0, 300)}`);
  return response;
}

/** Pushes one archive; returns each reference it names with the manifest's digest. */
export async function pushArchive(file: string): Promise<Record<string, string>> {
  const files = new Map(tarFiles(readFileSync(file)).map((e) => [e.name, e.data]));
  const blob = (digest: string) => {
    const data = files.get(`blobs/sha256/${digest.replace('sha256:', '')}`);
    if (!data) throw new Error(`${file}: no blob ${digest}`);
    return data;
  };
  const index = JSON.parse(files.get('index.json')!.toString()) as {
    manifests: { digest: string; mediaType: string; annotations: Record<string, string> }[];
  };
  const pushed: Record<string, string> = {};
  for (const entry of index.manifests) {
    const ref = entry.annotations['io.containerd.image.name']!;
    const slash = ref.indexOf('/');
    const registry = ref.slice(0, slash);
    const [repository, tag] = [ref.slice(slash + 1, ref.lastIndexOf(':')), ref.slice(ref.lastIndexOf(':') + 1)];
    const base = `http://${registry}/v2/${repository}`;
    const manifest = blob(entry.digest);
    const { config, layers } = JSON.parse(manifest.toString()) as { config: { digest: string }; layers: { digest: string }[] };
    for (const { digest } of [config, ...layers]) {
      if ((await fetch(`${base}/blobs/${digest}`, { method: 'HEAD' })).ok) continue;
      const started = await check(await fetch(`${base}/blobs/uploads/`, { method: 'POST' }), `${ref}: starting an upload`);
      const location = new URL(started.headers.get('location')!, `http://${registry}`);
      location.searchParams.set('digest', digest);
      await check(
        await fetch(location, {
          method: 'PUT',
          body: new Uint8Array(blob(digest)),
          headers: { 'content-type': 'application/octet-stream' },
        }),
        `${ref}: uploading ${digest}`,
      );
    }
    await check(
      await fetch(`${base}/manifests/${tag}`, {
        method: 'PUT',
        body: new Uint8Array(manifest),
        headers: { 'content-type': entry.mediaType },
      }),
      `${ref}: its manifest`,
    );
    pushed[ref] = entry.digest;
  }
  return pushed;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const results: Record<string, string> = {};
  for (const file of process.argv.slice(2)) Object.assign(results, await pushArchive(file));
  process.stdout.write(`${JSON.stringify(results)}\n`);
}
