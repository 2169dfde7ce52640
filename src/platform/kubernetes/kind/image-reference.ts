// A container image reference split as Docker reads it: the registry (Docker Hub when the first
// path component is not a host), the repository, an optional tag and an optional digest. Pure.

export interface ImageReference {
  /** The registry as written ("docker.io" when none is). */
  registry: string;
  /** The host its API answers on (Docker Hub's is registry-1.docker.io). */
  apiHost: string;
  repository: string;
  tag?: string;
  digest?: string;
}

export function parseImageReference(reference: string): ImageReference {
  const [named, digest] = reference.split('@') as [string, string | undefined];
  const slash = named.indexOf('/');
  const first = slash < 0 ? '' : named.slice(0, slash);
  const hasRegistry = first.includes('.') || first.includes(':') || first === 'localhost';
  const registry = hasRegistry ? first : 'docker.io';
  let path = hasRegistry ? named.slice(slash + 1) : named;
  let tag: string | undefined;
  const colon = path.lastIndexOf(':');
  if (colon > path.lastIndexOf('/')) {
    tag = path.slice(colon + 1);
    path = path.slice(0, colon);
  }
  const repository = registry === 'docker.io' && !path.includes('/') ? `library/${path}` : path;
  return {
    registry,
    apiHost: registry === 'docker.io' ? 'registry-1.docker.io' : registry,
    repository,
    ...(tag ? { tag } : {}),
    ...(digest ? { digest } : {}),
  };
}
