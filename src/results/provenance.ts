// Collects what a run ran beyond its config (run.provenance): the action's own ref and commit, the
// runner's image and Docker's version, the k6 binary's SHA-256 and where it came from, and the
// SHA-256 of every file the config names. Each reader returns nothing rather than failing: a fact
// that cannot be read is absent, never guessed. The control planes' images come from the platform
// (platform/kubernetes/control-plane-images.ts), kind's facts through kindProvenance below.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Provenance } from './types.ts';

const run = promisify(execFile);

/** GitHub's runner image (hosted runners set ImageOS and ImageVersion, e.g. ubuntu24 and 20261120.1.0). */
export function runnerProvenance(env: NodeJS.ProcessEnv): Provenance['runner'] | undefined {
  const out: NonNullable<Provenance['runner']> = {};
  if (env.ImageOS) out.imageOS = env.ImageOS;
  if (env.ImageVersion) out.imageVersion = env.ImageVersion;
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * mesh-perf as an action: the reusable workflows pass the commit they check the action out at
 * (MESH_PERF_ACTION_SHA, from job.workflow_sha, and MESH_PERF_ACTION_REPOSITORY); a `uses:` step
 * has GITHUB_ACTION_REPOSITORY and GITHUB_ACTION_REF (a tag or branch: GitHub gives an action no
 * commit of its own).
 */
export function actionProvenance(env: NodeJS.ProcessEnv): Provenance['action'] | undefined {
  const out: NonNullable<Provenance['action']> = {};
  const repository = env.MESH_PERF_ACTION_REPOSITORY || env.GITHUB_ACTION_REPOSITORY;
  const ref = env.MESH_PERF_ACTION_REF || env.GITHUB_ACTION_REF;
  const sha = env.MESH_PERF_ACTION_SHA;
  if (repository) out.repository = repository;
  if (ref) out.ref = ref;
  if (sha && /^[0-9a-f]{40}$/.test(sha)) out.sha = sha;
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Docker's server version (the daemon that ran kind's nodes); undefined without Docker or without a daemon answering. */
export async function dockerVersion(env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  try {
    const { stdout } = await run('docker', ['version', '--format', '{{.Server.Version}}'], { timeout: 5000, env });
    const version = stdout.trim();
    return /^\d[\w.+-]*$/.test(version) ? version : undefined;
  } catch {
    return undefined;
  }
}

/** SHA-256 of a file's content, hex; undefined when it cannot be read. Streamed: a k6 binary is 50 MB. */
export async function fileSha256(path: string): Promise<string | undefined> {
  return new Promise((done) => {
    const hash = createHash('sha256');
    const stream = createReadStream(path);
    stream.on('data', (chunk) => hash.update(chunk));
    stream.on('error', () => done(undefined));
    stream.on('end', () => done(hash.digest('hex')));
  });
}

/** SHA-256 of each file the config names (relative paths from `cwd`), keyed as the config names them; unreadable files are left out. */
export async function fileHashes(paths: readonly string[], cwd: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const path of [...new Set(paths)].sort()) {
    const sha = await fileSha256(resolve(cwd, path));
    if (sha) out[path] = sha;
  }
  return out;
}

/** What the kind platform knows of the cluster it ran on (see kindProvenance). */
export interface KindReport {
  /** `kind version`'s version, e.g. "0.31.0". */
  version: string;
  /** The node image as given to `kind create cluster` (kubernetes.kind.nodeImage, or the pinned default). */
  nodeImage: string;
  /** The image ID Docker resolved it to on the control-plane node's container (`docker inspect -f '{{.Image}}' <cluster>-control-plane`). */
  nodeImageId?: string;
  /** Docker's server version where the nodes ran (the platform's own Docker environment). */
  docker?: string;
}

/**
 * The seam for the kind platform: its provenance() reports its version, the node image it gave kind
 * and what Docker resolved it to (platform/types.ts PlatformProvenance.kind); the pipeline records
 * them through this ("kindest/node:v1.35.0@sha256:… (image ID sha256:…)" when the ID is known).
 */
export function kindProvenance(report: KindReport): Pick<Provenance, 'kind'> & { docker?: string } {
  const nodeImage = report.nodeImageId ? `${report.nodeImage} (image ID ${report.nodeImageId})` : report.nodeImage;
  return { kind: { version: report.version.replace(/^v/, ''), nodeImage }, ...(report.docker ? { docker: report.docker } : {}) };
}
