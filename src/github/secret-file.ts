// Writes a credential to a file only its owner can read, in a fresh directory under the runner's
// temp dir, so it reaches tools by path (KUBECONFIG) and never on a command line or in a log.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SecretFile {
  path: string;
  dir: string;
  remove(): Promise<void>;
}

export async function writeSecretFile(name: string, content: string, env: NodeJS.ProcessEnv = process.env): Promise<SecretFile> {
  const root = env.RUNNER_TEMP || tmpdir();
  const dir = await mkdtemp(join(root, 'mesh-perf-secret-'));
  const path = join(dir, name);
  // mode applies on creation; 'wx' refuses to follow a file someone planted in between.
  await writeFile(path, content, { mode: 0o600, flag: 'wx' });
  return { path, dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
