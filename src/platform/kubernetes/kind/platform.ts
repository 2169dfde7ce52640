// The kind platform: creates a local multi-node cluster with the pinned kind binary (SHA-256
// verified) and node image (by digest), retries the creation once, then runs the kubeconfig
// platform against it. Teardown deletes the cluster it created (unless kubernetes.kind.keep);
// a cluster of that name that already existed is reused and left in place.
import { loadEngineOf } from '../../../config/engine-checks.ts';
import { kindWithoutOperator } from '../k6-operator/version.ts';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModeConfig } from '../../../config/schema.ts';
import type { LoadProfile } from '../../../config/validate.ts';
import type { LoadRunner } from '../../../load/types.ts';
import { resolveTool } from '../mesh/tools.ts';
import { TOOL_PINS } from '../../../tools/pins.ts';
import { runCli, runCliChecked } from '../mesh/run-cli.ts';
import { EnvironmentError } from '../../../util/errors.ts';
import { redactTree } from '../../../util/redact-files.ts';
import type { ModeTarget } from '../../../load/types.ts';
import type { CreatedResource, Platform, PlatformContext, PlatformProvenance, ResourceSampler, TeardownOptions } from '../../types.ts';
import { KubernetesPlatform } from '../platform.ts';
import {
  INOTIFY_SYSCTLS,
  kindConfig,
  kindCreateArgs,
  kindDeleteArgs,
  kindExportLogsArgs,
  kindGetClustersArgs,
  kindKubeconfigArgs,
} from './commands.ts';

const CREATE_WAIT_SECONDS = 180;

export async function kindBinary(context: PlatformContext, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return resolveTool('kind', TOOL_PINS.kind!.version, context.log, env);
}

export async function kindClusterExists(kind: string, name: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  const result = await runCliChecked(kind, kindGetClustersArgs(), { timeoutMs: 30_000, env }, 'listing kind clusters');
  return result.stdout
    .split('\n')
    .map((l) => l.trim())
    .includes(name);
}

/** Deletes the kind cluster if it exists (the action's post step and `mesh-perf down` call this). */
export async function deleteKindCluster(name: string, log: PlatformContext['log'], env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  const kind = await resolveTool('kind', TOOL_PINS.kind!.version, log, env);
  if (!(await kindClusterExists(kind, name, env))) return false;
  await runCliChecked(kind, kindDeleteArgs(name), { timeoutMs: 180_000, env }, `deleting kind cluster "${name}"`);
  return true;
}

type ReadFile = (path: string) => Promise<string>;
const readProc: ReadFile = (p) => readFile(p, 'utf8');

/**
 * kind's known issue on busy hosts: too few inotify watches/instances ("too many open files").
 * Only the settings below kind's values: a higher limit (GitHub's runner images set 655360/1280)
 * is never lowered.
 */
export async function lowInotifySettings(read: ReadFile = readProc): Promise<string[]> {
  const low: string[] = [];
  for (const setting of INOTIFY_SYSCTLS) {
    const [key, wanted] = setting.split('=') as [string, string];
    const current = Number((await read(`/proc/sys/${key.replace(/\./g, '/')}`).catch(() => '')).trim());
    if (Number.isFinite(current) && current > 0 && current < Number(wanted)) low.push(setting);
  }
  return low;
}

function inotifyMessage(low: readonly string[]): string {
  return `inotify limits are low for a multi-node kind cluster with Istio CNI/ztunnel; raise them first: sudo sysctl -w ${low.join(' ')}`;
}

export async function inotifyAdvice(read: ReadFile = readProc): Promise<string | undefined> {
  const low = await lowInotifySettings(read);
  return low.length > 0 ? inotifyMessage(low) : undefined;
}

/** `sudo -n sysctl -w` for the low settings only (never prompts for a password). */
export function inotifyRaiseArgs(low: readonly string[]): string[] {
  return ['-n', 'sysctl', '-w', ...low];
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
      const result = await runCliChecked(
        this.kind,
        kindKubeconfigArgs(name),
        { timeoutMs: 30_000, env: this.env },
        'reading the kind kubeconfig',
      );
      await writeFile(kubeconfigPath, result.stdout, { mode: 0o600 });
    } else {
      // A cluster made now has no k6-operator: say so before minutes of cluster creation.
      if (loadEngineOf(this.context.config.profiles) === 'k6-operator') throw new EnvironmentError(kindWithoutOperator(name));
      await this.raiseInotifyLimits();
      await this.create(name, kubeconfigPath);
    }
    const config = {
      ...this.context.config,
      kubernetes: { ...this.context.config.kubernetes, kubeconfig: kubeconfigPath, context: `kind-${name}` },
    };
    this.inner = new KubernetesPlatform({ ...this.context, config }, { name: 'kind', env: this.env });
    await this.inner.prepare();
  }

  /**
   * On a GitHub Actions runner (passwordless sudo) low limits are raised, never lowered; elsewhere,
   * or when sudo is refused, the user is told the command. Every workflow that runs kind through
   * the action gets this, whatever its own steps do.
   */
  private async raiseInotifyLimits(): Promise<void> {
    const low = await lowInotifySettings();
    if (low.length === 0) return;
    if (this.env.GITHUB_ACTIONS === 'true') {
      const result = await runCli('sudo', inotifyRaiseArgs(low), { timeoutMs: 15_000, env: this.env }).catch(() => undefined);
      if (result?.exitCode === 0) {
        this.context.log.info(`raised inotify limits for kind: ${low.join(' ')}`);
        return;
      }
    }
    this.context.log.warn(inotifyMessage(low));
  }

  private get cluster(): CreatedResource {
    return { kind: 'kind-cluster', name: this.options.clusterName };
  }

  private async create(name: string, kubeconfigPath: string): Promise<void> {
    // Reported before `kind create`: a run killed mid-creation leaves a half-made cluster that is ours.
    this.context.lifecycle?.created(this.cluster);
    const configPath = join(this.workDir!, 'kind-config.yaml');
    await writeFile(configPath, kindConfig(this.options));
    const args = kindCreateArgs({
      name,
      nodeImage: this.options.nodeImage,
      workers: this.options.workers,
      configPath,
      kubeconfigPath,
      waitSeconds: CREATE_WAIT_SECONDS,
    });
    for (let attempt = 1; attempt <= 2; attempt++) {
      this.context.log.info(`creating kind cluster "${name}" (${this.options.workers} workers)${attempt > 1 ? ', second attempt' : ''}`);
      const result = await runCli(this.kind!, args, {
        timeoutMs: (CREATE_WAIT_SECONDS + 300) * 1000,
        signal: this.context.signal,
        env: this.env,
        onLine: (l) => this.context.log.progress(`kind: ${l.trim()}`),
      });
      this.context.log.progressDone();
      if (result.exitCode === 0) {
        this.created = true;
        return;
      }
      // A half-created cluster blocks the retry; remove it first.
      await runCli(this.kind!, kindDeleteArgs(name), { timeoutMs: 120_000, env: this.env }).catch(() => undefined);
      if (attempt === 2 || this.context.signal.aborted) {
        this.context.lifecycle?.removed(this.cluster);
        const docker = /docker|Cannot connect/i.test(result.stderr) ? ' kind needs a running Docker engine.' : '';
        throw new EnvironmentError(
          `kind could not create cluster "${name}" (exit ${result.exitCode}).${docker}\n${result.stderr.trim().split('\n').slice(-15).join('\n')}`,
        );
      }
    }
  }

  /** `kind export logs` of a failed run, before the cluster goes; never fails the teardown. */
  private async exportLogs(dir: string): Promise<void> {
    const result = await runCli(this.kind!, kindExportLogsArgs(this.options.clusterName, dir), { timeoutMs: 120_000, env: this.env }).catch(
      (error: unknown) => ({ exitCode: -1, stdout: '', stderr: String(error) }),
    );
    if (result.exitCode === 0) {
      // The logs are uploaded with the results: masked like every other output (util/redact-files.ts).
      const { redacted, removed } = await redactTree(dir);
      this.context.log.info(
        `kind logs of the failed run kept in ${dir}${redacted.length > 0 ? ` (credentials masked in ${redacted.length} file${redacted.length === 1 ? '' : 's'})` : ''}${removed.length > 0 ? `; ${removed.length} binary or oversized file${removed.length === 1 ? '' : 's'} left out` : ''}`,
      );
    } else this.context.log.warn(`kind export logs failed (exit ${result.exitCode}): ${result.stderr.trim().split('\n').pop() ?? ''}`);
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
  beforeTrial(mode: ModeConfig, profile: LoadProfile, generators: number): Promise<void> {
    return this.ready.beforeTrial(mode, profile, generators);
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

  /**
   * What ran: the control planes' images, from the cluster. kind's own facts (its version, the node
   * image it ran, Docker's version) belong here too, through results/provenance.ts kindProvenance.
   */
  provenance(): Promise<PlatformProvenance> {
    return this.inner?.provenance() ?? Promise.resolve({});
  }

  async teardown(options: TeardownOptions = {}): Promise<void> {
    try {
      if (this.created && options.diagnosticsDir) await this.exportLogs(join(options.diagnosticsDir, 'kind-logs'));
      if (this.created && !this.options.keep) {
        // Deleting the cluster removes everything in it; no need to clean namespaces first.
        await runCliChecked(
          this.kind!,
          kindDeleteArgs(this.options.clusterName),
          { timeoutMs: 180_000, env: this.env },
          `deleting kind cluster "${this.options.clusterName}"`,
        );
        this.created = false;
        this.context.lifecycle?.removed(this.cluster);
      } else {
        await this.inner?.teardown();
      }
    } finally {
      if (this.workDir) await rm(this.workDir, { recursive: true, force: true });
      this.workDir = undefined;
    }
  }
}
