// The digest a registry serves for an image's tag, over the registry HTTP API (a HEAD of the
// manifest, the Docker-Content-Digest header), with the anonymous bearer token a public registry
// asks for (Docker Hub's flow: 401 with WWW-Authenticate, a token from its realm, the request
// again). Used to say what a tag really points to when a pinned digest cannot be pulled. Plain
// HTTP only for registries Docker itself treats as insecure (loopback, or its --insecure-registry
// list). The fetch is handed in.
import type { ImageReference } from './image-reference.ts';

const MANIFEST_TYPES = [
  'application/vnd.oci.image.index.v1+json',
  'application/vnd.docker.distribution.manifest.list.v2+json',
  'application/vnd.oci.image.manifest.v1+json',
  'application/vnd.docker.distribution.manifest.v2+json',
].join(', ');

type Fetch = (url: string, init?: { method?: string; headers?: Record<string, string>; signal?: AbortSignal }) => Promise<Response>;

/** The challenge's realm, service and scope (RFC 6750 style, as registries send it). */
export function bearerChallenge(header: string | null): { realm: string; params: Record<string, string> } | undefined {
  if (!header || !/^Bearer\s/i.test(header)) return undefined;
  const params: Record<string, string> = {};
  for (const m of header.slice(7).matchAll(/(\w+)="([^"]*)"/g)) params[m[1]!] = m[2]!;
  const { realm, ...rest } = params;
  return realm ? { realm, params: rest } : undefined;
}

export type TagDigest = { digest: string } | { missing: true } | { error: string };

/** What `reference`'s tag resolves to in its registry: a digest, no such tag, or why it could not be asked. */
export async function tagDigest(
  reference: ImageReference,
  insecure: boolean,
  fetchImpl: Fetch = fetch,
  timeoutMs = 20_000,
): Promise<TagDigest> {
  if (!reference.tag) return { error: 'the reference has no tag to look up' };
  const url = `${insecure ? 'http' : 'https'}://${reference.apiHost}/v2/${reference.repository}/manifests/${reference.tag}`;
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    let response = await fetchImpl(url, { method: 'HEAD', headers: { accept: MANIFEST_TYPES }, signal });
    const challenge = response.status === 401 ? bearerChallenge(response.headers.get('www-authenticate')) : undefined;
    if (challenge) {
      const tokenUrl = new URL(challenge.realm);
      for (const [k, v] of Object.entries(challenge.params)) tokenUrl.searchParams.set(k, v);
      if (!challenge.params.scope) tokenUrl.searchParams.set('scope', `repository:${reference.repository}:pull`);
      const token = (await (await fetchImpl(tokenUrl.toString(), { signal })).json()) as { token?: string; access_token?: string };
      const bearer = token.token ?? token.access_token;
      if (bearer)
        response = await fetchImpl(url, { method: 'HEAD', headers: { accept: MANIFEST_TYPES, authorization: `Bearer ${bearer}` }, signal });
    }
    if (response.status === 404) return { missing: true };
    const digest = response.headers.get('docker-content-digest');
    if (response.ok && digest) return { digest };
    return { error: `HTTP ${response.status} from ${reference.apiHost}` };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { error: cause?.code ?? cause?.message ?? (error as Error).message };
  }
}
