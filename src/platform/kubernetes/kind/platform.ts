// The kind platform: the kubeconfig platform's steps with one before them, the cluster itself:
// created with the pinned kind binary (SHA-256 verified) and node image (by digest), the creation
// retried once; or, when a cluster of that name exists, reused and left in place. Its undo keeps
// kind's logs of a failed run (redacted) and deletes the cluster it created (unless
// kubernetes.kind.keep), which removes everything the later steps made with it.
import { loadEngineOf } from '../../../config/engine-checks.ts';
import { kindWithoutOperator } from '../k6-operator/version.ts';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveTool } from '../mesh/tools.ts';
import { TOOL_PINS } from '../../../tools/pins.ts';
import { runCli, runCliChecked } from '../mesh/run-cli.ts';
import { EnvironmentError } from '../../../util/errors.ts';
import { redactTree } from '../../../util/redact-files.ts';
import type { CreatedResource, PlatformContext, PlatformProvenance } from '../../types.ts';
import { dockerVersion, type KindReport } from '../../../results/provenance.ts';
import type { ClusterStep } from '../steps/step.ts';
import { KubernetesPlatform } from '../platform.ts';
import { classifyPullFailure, ensureNodeImage } from './node-image.ts';
import { waitNodesReady } from './nodes-ready.ts';
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

/**
 * Whether kind has a cluster of that name. kind asks Docker, so this is where a machine without
 * Docker, or with its daemon stopped, is found: said as that, with what to do.
 */
export async function kindClusterExists(kind: string, name: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  const result = await runCli(kind, kindGetClustersArgs(), { timeoutMs: 30_000, env });
  if (result.exitCode !== 0) {
    // kind says what failed on one line and what Docker said after "Command Output:".
    const said = result.stderr.replace(/\s+/g, ' ').trim();
    if (/"docker": executable file not found|docker: not found/i.test(said))
      throw new EnvironmentError(
        'kind needs Docker, and docker is not on PATH: install Docker Engine (https://docs.docker.com/engine/install/; GitHub-hosted Ubuntu runners have it) and start it',
      );
    const docker = said.split('Command Output:').pop()?.trim() ?? '';
    if (classifyPullFailure(docker) === 'daemon') throw new EnvironmentError(`kind needs a running Docker engine: ${docker}`);
    throw new EnvironmentError(`listing kind clusters failed: \`kind get clusters\` exited with ${result.exitCode}: ${said}`);
  }
  return result.stdout
    .split('\n')
    .map((l) => l.trim())
    .includes(name);
}

/**
 * A cluster whose node containers are not all running (a machine or Docker restart stops them)
 * cannot be reused: its API server never answers. Refused with what to do, never deleted: it may
 * be someone's.
 */
async function refuseStoppedCluster(name: string, env: NodeJS.ProcessEnv): Promise<void> {
  const listed = await runCli(
    'docker',
    ['ps', '-a', '--filter', `label=io.x-k8s.kind.cluster=${name}`, '--format', '{{.Names}} {{.State}}'],
    {
      timeoutMs: 30_000,
      env,
    },
  ).catch(() => undefined);
  if (listed?.exitCode !== 0) return;
  const stopped = listed.stdout
    .split('\n')
    .map((l) => l.trim().split(' '))
    .filter(([node, state]) => node && state !== 'running')
    .map(([node, state]) => `${node} ${state}`);
  if (stopped.length > 0)
    throw new EnvironmentError(
      `the kind cluster "${name}" exists but not all its nodes are running (${stopped.join(', ')}), as after a restart of the machine or of Docker; ` +
        `delete it with \`kind delete cluster --name ${name}\` (or \`mesh-perf down --config FILE\`) and run again, or pick another kubernetes.kind.clusterName`,
    );
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

/** The first step of a kind run: the cluster. Its state (what was created, where) is this run's own. */
function kindCluster(
  context: PlatformContext,
  env: NodeJS.ProcessEnv,
): ClusterStep & { createdCluster(): string | undefined; report(): Promise<KindReport | undefined> } {
  const options = context.config.kubernetes.kind;
  const cluster: CreatedResource = { kind: 'kind-cluster', name: options.clusterName };
  let kind: string | undefined;
  let workDir: string | undefined;
  let created = false;

  /**
   * On a GitHub Actions runner (passwordless sudo) low limits are raised, never lowered; elsewhere,
   * or when sudo is refused, the user is told the command. Every workflow that runs kind through
   * the action gets this, whatever its own steps do.
   */
  const raiseInotifyLimits = async (): Promise<void> => {
    const low = await lowInotifySettings();
    if (low.length === 0) return;
    if (env.GITHUB_ACTIONS === 'true') {
      const result = await runCli('sudo', inotifyRaiseArgs(low), { timeoutMs: 15_000, env }).catch(() => undefined);
      if (result?.exitCode === 0) {
        context.log.info(`raised inotify limits for kind: ${low.join(' ')}`);
        return;
      }
    }
    context.log.warn(inotifyMessage(low));
  };

  const create = async (name: string, kubeconfigPath: string): Promise<void> => {
    // Reported before `kind create`: a run killed mid-creation leaves a half-made cluster that is ours.
    context.lifecycle?.created(cluster);
    const configPath = join(workDir!, 'kind-config.yaml');
    await writeFile(configPath, kindConfig(options));
    const args = kindCreateArgs({
      name,
      nodeImage: options.nodeImage,
      workers: options.workers,
      configPath,
      kubeconfigPath,
      waitSeconds: CREATE_WAIT_SECONDS,
    });
    for (let attempt = 1; attempt <= 2; attempt++) {
      context.log.info(`creating kind cluster "${name}" (${options.workers} workers)${attempt > 1 ? ', second attempt' : ''}`);
      const result = await runCli(kind!, args, {
        timeoutMs: (CREATE_WAIT_SECONDS + 300) * 1000,
        signal: context.signal,
        env,
        onLine: (l) => context.log.progress(`kind: ${l.trim()}`),
      });
      context.log.progressDone();
      if (result.exitCode === 0) {
        created = true;
        return;
      }
      // A half-created cluster blocks the retry; remove it first.
      await runCli(kind!, kindDeleteArgs(name), { timeoutMs: 120_000, env }).catch(() => undefined);
      if (attempt === 2 || context.signal.aborted) {
        context.lifecycle?.removed(cluster);
        const docker = classifyPullFailure(result.stderr) === 'daemon' ? ' kind needs a running Docker engine.' : '';
        throw new EnvironmentError(
          `kind could not create cluster "${name}" (exit ${result.exitCode}).${docker}\n${result.stderr.trim().split('\n').slice(-15).join('\n')}`,
        );
      }
    }
  };

  /** `kind export logs` of a failed run, before the cluster goes; never fails the teardown. */
  const exportLogs = async (dir: string): Promise<void> => {
    const result = await runCli(kind!, kindExportLogsArgs(options.clusterName, dir), { timeoutMs: 120_000, env }).catch(
      (error: unknown) => ({ exitCode: -1, stdout: '', stderr: String(error) }),
    );
    if (result.exitCode === 0) {
      // The logs are uploaded with the results: masked like every other output (util/redact-files.ts).
      const { redacted, removed } = await redactTree(dir);
      context.log.info(
        `kind logs of the failed run kept in ${dir}${redacted.length > 0 ? ` (credentials masked in ${redacted.length} file${redacted.length === 1 ? '' : 's'})` : ''}${removed.length > 0 ? `; ${removed.length} binary or oversized file${removed.length === 1 ? '' : 's'} left out` : ''}`,
      );
    } else context.log.warn(`kind export logs failed (exit ${result.exitCode}): ${result.stderr.trim().split('\n').pop() ?? ''}`);
  };

  return {
    name: 'kind cluster',
    phase: 'kind cluster',
    async up(run) {
      kind = await resolveTool('kind', TOOL_PINS.kind!.version, context.log, env);
      workDir = await mkdtemp(join(tmpdir(), 'mesh-perf-kind-'));
      const kubeconfigPath = join(workDir, 'kubeconfig');
      const name = options.clusterName;
      if (await kindClusterExists(kind, name, env)) {
        await refuseStoppedCluster(name, env);
        context.log.info(`reusing the existing kind cluster "${name}" (it will be left in place)`);
        const result = await runCliChecked(kind, kindKubeconfigArgs(name), { timeoutMs: 30_000, env }, 'reading the kind kubeconfig');
        await writeFile(kubeconfigPath, result.stdout, { mode: 0o600 });
      } else {
        // A cluster made now has no k6-operator: say so before minutes of cluster creation.
        if (loadEngineOf(context.config.profiles) === 'k6-operator') throw new EnvironmentError(kindWithoutOperator(name));
        await raiseInotifyLimits();
        await ensureNodeImage(options.nodeImage, { env, signal: context.signal, log: context.log });
        await create(name, kubeconfigPath);
      }
      run.clusterAccess = { kubeconfig: kubeconfigPath, context: `kind-${name}` };
      if (created) {
        const ready = await waitNodesReady(await run.connect(), options.workers + 1, run.readyTimeoutMs, context.signal);
        context.log.info(
          `kind cluster "${name}": ${options.workers + 1} nodes Ready${ready.seconds >= 1 ? ` (${ready.seconds.toFixed(0)} s after kind returned)` : ''}`,
        );
      }
    },
    // Deleting the cluster removes everything in it: the later steps' undos are not needed.
    removesAll: () => created && !options.keep,
    async down(_run, teardown) {
      try {
        if (created && teardown.options.diagnosticsDir) await exportLogs(join(teardown.options.diagnosticsDir, 'kind-logs'));
        if (created && options.keep)
          context.log.info(
            `kind cluster "${options.clusterName}" kept (kubernetes.kind.keep): the next run reuses it; delete it with \`kind delete cluster --name ${options.clusterName}\` or \`mesh-perf down\` with this config`,
          );
        if (created && !options.keep) {
          await teardown.attempt(`deleting kind cluster "${options.clusterName}"`, async () => {
            await runCliChecked(
              kind!,
              kindDeleteArgs(options.clusterName),
              { timeoutMs: 180_000, env },
              `deleting kind cluster "${options.clusterName}"`,
            );
            created = false;
            context.lifecycle?.removed(cluster);
          });
        }
      } finally {
        if (workDir) await rm(workDir, { recursive: true, force: true });
        workDir = undefined;
      }
    },
    createdCluster: () => (created ? options.clusterName : undefined),
    report: async () => {
      if (!kind) return undefined;
      // Both asked of the tools themselves: a fact that cannot be read is left out, never guessed.
      const version = await runCli(kind, ['version'], { timeoutMs: 15_000, env }).catch(() => undefined);
      const node = await runCli('docker', ['inspect', '-f', '{{.Image}}', `${options.clusterName}-control-plane`], {
        timeoutMs: 15_000,
        env,
      }).catch(() => undefined);
      const docker = await dockerVersion(env);
      const kindVersion = version?.exitCode === 0 ? /v?(\d+\.\d+\.\d+[^\s]*)/.exec(version.stdout)?.[1] : undefined;
      if (!kindVersion) return undefined;
      const nodeImageId = node?.exitCode === 0 ? node.stdout.trim() : '';
      return {
        version: kindVersion,
        nodeImage: options.nodeImage,
        ...(nodeImageId ? { nodeImageId } : {}),
        ...(docker ? { docker } : {}),
      } satisfies KindReport;
    },
  };
}

export class KindPlatform extends KubernetesPlatform {
  private readonly cluster: ReturnType<typeof kindCluster>;

  constructor(context: PlatformContext, env: NodeJS.ProcessEnv = process.env) {
    const cluster = kindCluster(context, env);
    super(context, { name: 'kind', env, firstSteps: [cluster] });
    this.cluster = cluster;
  }

  /** Name of the cluster this platform created (for the action's post step to delete), if any. */
  createdCluster(): string | undefined {
    return this.cluster.createdCluster();
  }

  /** True once a cluster was created or anything was deployed into one. */
  override hasCreated(): boolean {
    return this.cluster.createdCluster() !== undefined || super.hasCreated();
  }

  /** What ran: the meshes' images from the cluster, and kind's own facts (its version, the node image and what Docker resolved it to). */
  override async provenance(): Promise<PlatformProvenance> {
    const kind = await this.cluster.report();
    return { ...(await super.provenance()), ...(kind ? { kind } : {}) };
  }
}
