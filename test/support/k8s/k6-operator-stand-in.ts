// Plays k6-operator's controller against the local control plane, where the real one cannot
// run (the Go module proxy refuses github.com/grafana/k6-operator). It does what the pinned
// release's controller does, as read from its source (internal/controller, pkg/resources/jobs):
// stage "" → initialization → initialized; one runner Job `<name>-<k>` per parallelism, owned by
// the TestRun, labelled app=k6, k6_cr=<name>, runner=true plus spec.runner.metadata.labels, with
// the runner pod spec of spec.runner (env, volumes, affinity, resources) → created; once every
// runner pod is Running, the starter's request (PATCH /v1/status {paused: false}) to every
// runner → started. The real kube-controller-manager turns the Jobs into pods, the real
// scheduler places them (anti-affinity included) on kwok nodes.
//
// kwok runs no containers, so for each runner pod the stand-in starts the runner's process here,
// as the kubelet would: the command k6-operator builds, with the script and wrapper taken from
// the TestRun's ConfigMap into a local directory, the pod's env (MESH_PERF_POD from the downward
// API) and a local REST address. kwok's exec runs the engine's commands on this machine too, so
// the engine reads exactly the files that wrapper and k6 wrote.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { rawRequest, type ClusterAccess } from '../../../src/platform/kubernetes/access.ts';
import { operatorSegment } from '../../../src/platform/kubernetes/k6-operator/testrun.ts';
import { freePortRun } from '../ports.ts';
import { localK6Dir } from './tools.ts';

/** How far the stand-in takes a TestRun. */
export type Behaviour =
  | 'normal'
  /** Set stage "error" after "initialization", as the controller does when the initializer fails. */
  | 'error-after-initialization'
  /** Do nothing at all (no controller installed). */
  | 'absent'
  /** Kill runner `killRunner`'s k6 (SIGKILL) once the test started. */
  | 'kill-runner';

interface TestRunView {
  metadata: { name: string; namespace: string; uid: string };
  spec: {
    parallelism: number;
    args?: string[];
    script: { configMap: { name: string; file?: string } };
    runner: {
      image?: string;
      env?: { name: string; value?: string; valueFrom?: { fieldRef?: { fieldPath: string } } }[];
      metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
      affinity?: unknown;
      resources?: unknown;
      volumes?: unknown[];
      volumeMounts?: unknown[];
      livenessProbe?: unknown;
    };
  };
}

export interface RunnerProcess {
  pod: string;
  k: number;
  child: ChildProcess;
  /** Resolves with the wrapper's exit code. */
  exited: Promise<number | null>;
  port: number;
}

export class OperatorStandIn {
  readonly runners = new Map<string, RunnerProcess[]>();
  /** Stages set per TestRun, in order. */
  readonly stages = new Map<string, string[]>();
  /** Each TestRun as the API server stored it (after its schema pruned unknown fields). */
  readonly seen = new Map<string, TestRunView>();
  /** Node of each runner pod (by k) once all ran. */
  readonly nodes = new Map<string, Map<number, string>>();
  /** The exact runner container command per TestRun (as k6-operator would put in the Job). */
  readonly commands = new Map<string, string[][]>();
  /** Where the runners' image has its k6: the stock build, or the pacer's (the client image with k6ext's k6). */
  k6Dir = localK6Dir();
  private readonly handled = new Set<string>();
  private stopped = false;
  private loop?: Promise<void>;
  private dirs: string[] = [];
  behaviour: Behaviour = 'normal';
  killRunner = 2;

  constructor(
    private readonly access: ClusterAccess,
    private readonly namespace: string,
  ) {}

  start(): void {
    this.loop = (async () => {
      while (!this.stopped) {
        const list = await rawRequest(this.access, `/apis/k6.io/v1alpha1/namespaces/${this.namespace}/testruns`).catch(() => undefined);
        if (list?.status === 200) {
          for (const tr of (JSON.parse(list.body) as { items: TestRunView[] }).items) {
            if (this.handled.has(tr.metadata.uid)) continue;
            this.handled.add(tr.metadata.uid);
            void this.reconcile(tr).catch((error: Error) => {
              if (!this.stopped) console.error(`stand-in: ${tr.metadata.name}: ${error.message}`);
            });
          }
        }
        await sleep(200);
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
    for (const list of this.runners.values()) for (const r of list) if (r.child.exitCode === null) r.child.kill('SIGKILL');
    for (const dir of this.dirs) await rm(dir, { recursive: true, force: true });
  }

  private async setStage(tr: TestRunView, stage: string): Promise<void> {
    const response = await rawRequest(
      this.access,
      `/apis/k6.io/v1alpha1/namespaces/${this.namespace}/testruns/${tr.metadata.name}/status`,
      {
        method: 'PATCH',
        body: JSON.stringify({ status: { stage } }),
        contentType: 'application/merge-patch+json',
      },
    );
    if (response.status !== 200) throw new Error(`status patch to ${stage}: HTTP ${response.status} ${response.body.slice(0, 300)}`);
    this.stages.set(tr.metadata.name, [...(this.stages.get(tr.metadata.name) ?? []), stage]);
  }

  private async reconcile(tr: TestRunView): Promise<void> {
    const name = tr.metadata.name;
    this.seen.set(name, tr);
    if (this.behaviour === 'absent') return;
    await this.setStage(tr, 'initialization');
    if (this.behaviour === 'error-after-initialization') {
      await this.setStage(tr, 'error');
      return;
    }
    await this.setStage(tr, 'initialized');
    const n = tr.spec.parallelism;
    const script = tr.spec.script.configMap;
    const commands: string[][] = [];
    for (let k = 1; k <= n; k++) {
      const segments =
        n > 1
          ? [`--execution-segment=${operatorSegment(k, n).segment}`, `--execution-segment-sequence=${operatorSegment(k, n).sequence}`]
          : [];
      const command = [
        'k6',
        'run',
        '--quiet',
        ...segments,
        ...(tr.spec.args ?? []),
        `/test/${script.file ?? 'test.js'}`,
        '--address=0.0.0.0:6565',
        '--paused',
        '--tag',
        `instance_id=${k}`,
        '--tag',
        `testrun_name=${name}`,
      ];
      commands.push(command);
      await this.createJob(tr, k, command);
    }
    this.commands.set(name, commands);
    await this.setStage(tr, 'created');

    const pods = await this.waitRunnersRunning(name, n);
    if (!pods) return;
    const local = await this.localFiles(script.name);
    const runners: RunnerProcess[] = [];
    for (let k = 1; k <= n; k++) {
      const pod = pods.get(k)!;
      const port = await freePortRun(1); // named to k6 ahead of its bind: below the ephemeral range
      // As the kubelet does with a container command: $$ is a literal $ (runnerArgs escapes $( so).
      const command = commands[k - 1]!.map((arg) => arg.replaceAll('$$', '$')).map((arg) =>
        arg === `/test/${script.file ?? 'test.js'}`
          ? join(local.dir, script.file ?? 'test.js')
          : arg === '--address=0.0.0.0:6565'
            ? `--address=127.0.0.1:${port}`
            : arg,
      );
      const env: NodeJS.ProcessEnv = { HOME: process.env.HOME, TMPDIR: process.env.TMPDIR };
      for (const e of tr.spec.runner.env ?? []) {
        if (e.valueFrom?.fieldRef?.fieldPath === 'metadata.name') env[e.name] = pod;
        else if (e.value !== undefined) env[e.name] = e.value;
      }
      // The pod's PATH names the wrapper's mount; here the wrapper sits in local.bin.
      env.PATH = `${local.bin}:${this.k6Dir}:/usr/bin:/bin`;
      const child = spawn(join(local.bin, 'k6'), command.slice(1), { env, stdio: ['ignore', 'ignore', 'pipe'] });
      child.stderr!.resume();
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      runners.push({ pod, k, child, exited, port });
    }
    this.runners.set(name, runners);
    // The starter: every runner's REST API answers, then one PATCH each.
    for (const r of runners) await waitHttp(`http://127.0.0.1:${r.port}/v1/status`);
    for (const r of runners) {
      const res = await fetch(`http://127.0.0.1:${r.port}/v1/status`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ data: { attributes: { paused: false }, id: 'default', type: 'status' } }),
      });
      if (!res.ok) throw new Error(`starter: runner ${r.k}: HTTP ${res.status}`);
    }
    await this.setStage(tr, 'started');
    if (this.behaviour === 'kill-runner') {
      await sleep(1500);
      const victim = runners.find((r) => r.k === this.killRunner)!;
      // The wrapper's child is k6: kill k6 only, as an OOM kill would.
      spawn('pkill', ['-KILL', '-P', String(victim.child.pid), 'k6']);
    }
  }

  private async createJob(tr: TestRunView, k: number, command: string[]): Promise<void> {
    const name = tr.metadata.name;
    const labels = { ...(tr.spec.runner.metadata?.labels ?? {}), app: 'k6', k6_cr: name, runner: 'true' };
    const job = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: {
        name: `${name}-${k}`,
        namespace: this.namespace,
        labels,
        ownerReferences: [
          { apiVersion: 'k6.io/v1alpha1', kind: 'TestRun', name, uid: tr.metadata.uid, controller: true, blockOwnerDeletion: true },
        ],
      },
      spec: {
        backoffLimit: 0,
        template: {
          metadata: { labels, annotations: tr.spec.runner.metadata?.annotations ?? {} },
          spec: {
            hostname: `${name}-${k}`,
            restartPolicy: 'Never',
            affinity: tr.spec.runner.affinity,
            containers: [
              {
                name: 'k6',
                image: tr.spec.runner.image ?? 'grafana/k6:latest',
                command,
                env: tr.spec.runner.env,
                resources: tr.spec.runner.resources,
                volumeMounts: [{ name: 'k6-test-volume', mountPath: '/test', readOnly: true }, ...(tr.spec.runner.volumeMounts ?? [])],
                ports: [{ containerPort: 6565 }],
                livenessProbe: tr.spec.runner.livenessProbe,
              },
            ],
            volumes: [{ name: 'k6-test-volume', configMap: { name: tr.spec.script.configMap.name } }, ...(tr.spec.runner.volumes ?? [])],
          },
        },
      },
    };
    const response = await rawRequest(this.access, `/apis/batch/v1/namespaces/${this.namespace}/jobs`, {
      method: 'POST',
      body: JSON.stringify(job),
      contentType: 'application/json',
    });
    if (response.status !== 201) throw new Error(`job ${name}-${k}: HTTP ${response.status} ${response.body.slice(0, 400)}`);
  }

  /** Runner pod names by k once all n run; undefined if the TestRun went away first. */
  private async waitRunnersRunning(name: string, n: number): Promise<Map<number, string> | undefined> {
    for (;;) {
      if (this.stopped) return undefined;
      const tr = await rawRequest(this.access, `/apis/k6.io/v1alpha1/namespaces/${this.namespace}/testruns/${name}`);
      if (tr.status === 404) return undefined;
      const list = await rawRequest(
        this.access,
        `/api/v1/namespaces/${this.namespace}/pods?labelSelector=${encodeURIComponent(`k6_cr=${name},runner=true`)}`,
      );
      const pods = (
        JSON.parse(list.body) as {
          items: {
            metadata: { name: string; labels: Record<string, string> };
            spec?: { nodeName?: string };
            status?: { phase?: string };
          }[];
        }
      ).items;
      const running = new Map<number, string>();
      const nodes = new Map<number, string>();
      for (const pod of pods)
        if (pod.status?.phase === 'Running') {
          const k = Number(pod.metadata.labels['job-name']!.slice(name.length + 1));
          running.set(k, pod.metadata.name);
          nodes.set(k, pod.spec?.nodeName ?? '');
        }
      if (running.size === n) {
        this.nodes.set(name, nodes);
        return running;
      }
      await sleep(250);
    }
  }

  private async localFiles(configMap: string): Promise<{ dir: string; bin: string }> {
    const response = await rawRequest(this.access, `/api/v1/namespaces/${this.namespace}/configmaps/${configMap}`);
    if (response.status !== 200) throw new Error(`configmap ${configMap}: HTTP ${response.status}`);
    const data = (JSON.parse(response.body) as { data: Record<string, string> }).data;
    const dir = await mkdtemp(join(tmpdir(), 'mesh-perf-standin-'));
    this.dirs.push(dir);
    const bin = join(dir, 'bin');
    await mkdir(bin);
    for (const [key, value] of Object.entries(data)) await writeFile(join(dir, key), value);
    // What the runner's second volume does: the wrapper key mounted as bin/k6, mode 0755.
    await writeFile(join(bin, 'k6'), data['mesh-perf-k6-wrapper.sh']!);
    await chmod(join(bin, 'k6'), 0o755);
    return { dir, bin };
  }
}

async function waitHttp(url: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const ok = await fetch(url)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${url} did not answer within 20s`);
    await sleep(100);
  }
}
