// The kind platform: creates a local multi-node cluster with the pinned kind binary (SHA-256
// verified) and node image (by digest), retries the creation once, then runs the kubeconfig
// platform against it. Teardown deletes the cluster it created (unless kubernetes.kind.keep);
// a cluster of that name that already existed is reused and left in place.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModeConfig } from '../../config/schema.ts';
import type { LoadProfile } from '../../config/validate.ts';
import type { LoadRunner } from '../../load/types.ts';
import { resolveTool } from '../../mesh/tools.ts';
import { TOOL_PINS } from '../../tools/pins.ts';
import { runCli, runCliChecked } from '../../mesh/run-cli.ts';
import { EnvironmentError } from '../../util/errors.ts';
import type { ModeTarget, Platform, PlatformContext, ResourceSampler } from '../types.ts';
import { KubernetesPlatform } from '../kubernetes/platform.ts';
import { INOTIFY_SYSCTLS, kindConfig, kindCreateArgs, kindDeleteArgs, kindGetClustersArgs, kindKubeconfigArgs } from './commands.ts';

const CREATE_WAIT_SECONDS = 180;

export async function kindBinary(context: PlatformContext, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return resolveTool('kind', TOOL_PINS.kind!.version, context.log, env);
}

export async function kindClusterExists(kind: string, name: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  const result = await runCliChecked(kind, kindGetClustersArgs(), { timeoutMs: 30_000, env }, 'listing kind clusters');
  return result.stdout.split('\n').map((l) => l.trim()).includes(name);
}

/** Deletes the kind cluster if it exists (the action's post step and `mesh-perf down` call this). */
export async function deleteKindCluster(name: string, log: PlatformContext['log'], env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  const kind = await resolveTool('kind', TOOL_PINS.kind!.version, log, env);
  if (!(await kindClusterExists(kind, name, env))) return false;
  await runCliChecked(kind, kindDeleteArgs(name), { timeoutMs: 180_000, env }, `deleting kind cluster "${name}"`);
  return true;
}

/** kind's known issue on busy hosts: too few inotify watches/instances ("too many open files"). */
export async function inotifyAdvice(read: (path: string) => Promise<string> = (p) => readFile(p, 'utf8')): Promise<string | undefined> {
  const low: string[] = [];
  for (const setting of INOTIFY_SYSCTLS) {
    const [key, wanted] = setting.split('=') as [string, string];
    const current = Number((await read(`/proc/sys/${key.replace(/\./g, '/')}`).catch(() => '')).trim());
    if (Number.isFinite(current) && current > 0 && current < Number(wanted)) low.push(setting);
  }
  return low.length > 0 ? `inotify limits are low for a multi-node kind cluster with Istio CNI/ztunnel; raise them first: sudo sysctl -w ${low.join(' ')}` : undefined;
}

export class KindPlatform implements Platform {
  readonly name = 'kind';
  private inner?: KubernetesPlatform;
  private workDir?: string;
  private kind?: string;
  private created = false;

  constructor(
    private readonly context: PlatformContext,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  private get options() {
    return this.context.config.kubernetes.kind;
  }

  async prepare(): Promise<void> {
    const log = this.context.log;
    log.phase('kind cluster');
    this.kind = await kindBinary(this.context, this.env);
    this.workDir = await mkdtemp(join(tmpdir(), 'mesh-perf-kind-'));
    const kubeconfigPath = join(this.workDir, 'kubeconfig');
    const name = this.options.clusterName;
    if (await kindClusterExists(this.kind, name, this.env)) {
      log.info(`reusing the existing kind cluster "${name}" (it will be left in place)`);
      const result = await runCliChecked(this.kind, kindKubeconfigArgs(name), { timeoutMs: 30_000, env: this.env }, 'reading the kind kubeconfig');
      await writeFile(kubeconfigPath, result.stdout, { mode: 0o600 });
    } else {
      const advice = await inotifyAdvice();
      if (advice) log.warn(advice);
      await this.create(name, kubeconfigPath);
    }
    const config = { ...this.context.config, kubernetes: { ...this.context.config.kubernetes, kubeconfig: kubeconfigPath, context: `kind-${name}` } };
    this.inner = new KubernetesPlatform({ ...this.context, config }, { name: 'kind', env: this.env });
    await this.inner.prepare();
  }

  private async create(name: string, kubeconfigPath: string): Promise<void> {
    const configPath = join(this.workDir!, 'kind-config.yaml');
    await writeFile(configPath, kindConfig(this.options));
    const args = kindCreateArgs({ name, nodeImage: this.options.nodeImage, workers: this.options.workers, configPath, kubeconfigPath, waitSeconds: CREATE_WAIT_SECONDS });
    for (let attempt = 1; attempt <= 2; attempt++) {
      this.context.log.info(`creating kind cluster "${name}" (${this.options.workers} workers)${attempt > 1 ? ', second attempt' : ''}`);
      const result = await runCli(this.kind!, args, { timeoutMs: (CREATE_WAIT_SECONDS + 300) * 1000, signal: this.context.signal, env: this.env, onLine: (l) => this.context.log.progress(`kind: ${l.trim()}`) });
      this.context.log.progressDone();
      if (result.exitCode === 0) {
        this.created = true;
        return;
      }
      // A half-created cluster blocks the retry; remove it first.
      await runCli(this.kind!, kindDeleteArgs(name), { timeoutMs: 120_000, env: this.env }).catch(() => undefined);
      if (attempt === 2 || this.context.signal.aborted) {
        const docker = /docker|Cannot connect/i.test(result.stderr) ? ' kind needs a running Docker engine.' : '';
        throw new EnvironmentError(`kind could not create cluster "${name}" (exit ${result.exitCode}).${docker}\n${result.stderr.trim().split('\n').slice(-15).join('\n')}`);
      }
    }
  }

  /** Name of the cluster this platform created (for the action's post step to delete), if any. */
  createdCluster(): string | undefined {
    return this.created ? this.options.clusterName : undefined;
  }

  /** True once a cluster was created or anything was deployed into one. */
  hasCreated(): boolean {
    return this.created || (this.inner?.hasCreated() ?? false);
  }

  private get ready(): KubernetesPlatform {
    if (!this.inner) throw new EnvironmentError('the kind platform was not prepared');
    return this.inner;
  }

  target(mode: ModeConfig): ModeTarget {
    return this.ready.target(mode);
  }

  /** Scaling per load profile happens in the cluster, as on the kubeconfig platform. */
  beforeTrial(mode: ModeConfig, profile: LoadProfile): Promise<void> {
    return this.ready.beforeTrial(mode, profile);
  }

  loadRunner(): LoadRunner {
    return this.ready.loadRunner();
  }

  resourceSampler(): ResourceSampler | undefined {
    return this.ready.resourceSampler();
  }

  environment(): Promise<Record<string, unknown>> {
    return this.inner ? this.inner.environment() : Promise.resolve({ platform: 'kind' });
  }

  async teardown(): Promise<void> {
    try {
      if (this.created && !this.options.keep) {
        // Deleting the cluster removes everything in it; no need to clean namespaces first.
        await runCliChecked(this.kind!, kindDeleteArgs(this.options.clusterName), { timeoutMs: 180_000, env: this.env }, `deleting kind cluster "${this.options.clusterName}"`);
        this.created = false;
      } else {
        await this.inner?.teardown();
      }
    } finally {
      if (this.workDir) await rm(this.workDir, { recursive: true, force: true });
      this.workDir = undefined;
    }
  }
}
