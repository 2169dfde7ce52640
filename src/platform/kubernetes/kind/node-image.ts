// The node image before `kind create`: kind pulls it when Docker lacks it, and says little when
// that fails. Here Docker is asked first (inspect, then pull, as kind would), and a pull that fails
// is said for what it is: Docker not running (exit 3), the registry unreachable (exit 3, naming
// it), or a pinned digest the registry does not have, with the digest its tag really has (exit 2,
// both digests: the config is wrong, or the tag moved).
import { UsageError, EnvironmentError } from '../../../util/errors.ts';
import type { Logger } from '../../../util/log.ts';
import { runCli } from '../mesh/run-cli.ts';
import { parseImageReference } from './image-reference.ts';
import { tagDigest } from './tag-digest.ts';

export type PullFailure = 'daemon' | 'unreachable' | 'not-found' | 'other';

/** What a failed `docker pull` said, by the phrases Docker's daemon and registries use. Pure. */
export function classifyPullFailure(stderr: string): PullFailure {
  if (/Cannot connect to the Docker daemon|Is the docker daemon running|docker\.sock: connect/i.test(stderr)) return 'daemon';
  if (
    /connection refused|no such host|i\/o timeout|dial tcp|TLS handshake timeout|network is unreachable|no route to host|server gave HTTP response to HTTPS client|context deadline exceeded/i.test(
      stderr,
    )
  )
    return 'unreachable';
  if (/manifest unknown|not found|does not exist|no such manifest|pull access denied/i.test(stderr)) return 'not-found';
  return 'other';
}

const isLoopback = (host: string) => /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?$/.test(host);

/** Whether Docker talks plain HTTP to this registry (loopback, or listed as insecure in its daemon). */
async function insecureRegistry(registry: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  if (isLoopback(registry)) return true;
  const info = await runCli('docker', ['info', '--format', '{{json .RegistryConfig.IndexConfigs}}'], { timeoutMs: 20_000, env }).catch(
    () => undefined,
  );
  try {
    const configs = JSON.parse(info?.stdout ?? '{}') as Record<string, { Secure?: boolean }>;
    return configs[registry]?.Secure === false;
  } catch {
    return false;
  }
}

const lastLine = (text: string) => text.trim().split('\n').filter(Boolean).pop() ?? '';

export async function ensureNodeImage(
  image: string,
  options: { env: NodeJS.ProcessEnv; signal?: AbortSignal; log: Logger },
): Promise<void> {
  const { env, log } = options;
  const inspect = await runCli('docker', ['image', 'inspect', '--format', '{{.Id}}', image], { timeoutMs: 30_000, env }).catch(
    (error: Error) => {
      throw new EnvironmentError(
        `kind needs Docker, and ${error.message.includes('ENOENT') ? 'docker is not on PATH' : error.message}: install Docker Engine (https://docs.docker.com/engine/install/) and start it`,
      );
    },
  );
  if (inspect.exitCode === 0) return;
  if (classifyPullFailure(inspect.stderr) === 'daemon')
    throw new EnvironmentError(`kind needs a running Docker engine: ${lastLine(inspect.stderr)}`);
  log.info(`pulling the kind node image ${image}`);
  const pull = await runCli('docker', ['pull', image], {
    timeoutMs: 15 * 60_000,
    env,
    signal: options.signal,
    onLine: (l) => log.progress(`docker: ${l.trim()}`),
  });
  log.progressDone();
  if (pull.exitCode === 0) return;
  const said = lastLine(pull.stderr || pull.stdout);
  const reference = parseImageReference(image);
  const failure = classifyPullFailure(said);
  if (failure === 'daemon') throw new EnvironmentError(`kind needs a running Docker engine: ${said}`);
  if (failure === 'unreachable')
    throw new EnvironmentError(`the kind node image's registry ${reference.registry} cannot be reached (docker pull ${image}: ${said})`);
  const named = `${reference.registry}/${reference.repository}${reference.tag ? `:${reference.tag}` : ''}`;
  if (failure === 'not-found' && reference.tag && reference.digest) {
    const tagged = await tagDigest(reference, await insecureRegistry(reference.registry, env));
    if ('digest' in tagged && tagged.digest !== reference.digest)
      throw new UsageError(
        `kubernetes.kind.nodeImage "${image}": the pinned digest ${reference.digest} is not in ${reference.registry}, where ${named} is ${tagged.digest}; ` +
          'pin the digest of the image you mean (check that one before pinning it), or correct the reference',
      );
    if ('missing' in tagged)
      throw new UsageError(
        `kubernetes.kind.nodeImage "${image}": ${reference.registry} has neither the pinned digest ${reference.digest} nor the tag ${reference.tag}; correct the reference`,
      );
  }
  throw new EnvironmentError(`kind node image ${image} could not be pulled: ${said}`);
}
