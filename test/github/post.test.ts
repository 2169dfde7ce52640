// The post step: the main step is killed mid-run (as a cancelled or timed-out job is), and the
// post step, run like the runner runs it with the saved state, removes what main left behind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { commands, parseFileCommands, REPO_ROOT, runAction, runnerFiles } from './harness.ts';
import { CLEANUP_STATE } from '../../src/github/cleanup.ts';

test('post removes what a killed main step left, runs cleanup commands, and only warns on failure', { timeout: 120_000 }, async () => {
  const files = await runnerFiles('post');
  try {
    const ws = join(files.dir, 'workspace');
    await mkdir(ws);
    await writeFile(
      join(ws, 'mesh-perf.yaml'),
      [
        'suite: post',
        'platform: local',
        'modes:',
        '  - name: direct',
        'load:',
        '  rate: 5',
        '  duration: 60s',
        '  warmup: 0s',
        '  repetitions: 1',
        '',
      ].join('\n'),
    );
    await writeFile(files.event, JSON.stringify({ schedule: '0 0 * * *' }));
    const kubeconfig = `apiVersion: v1\nkind: Config\nusers:\n- name: u\n  user:\n    token: t-${randomBytes(8).toString('hex')}\n`;
    // Detached: the action leads its own process group, so the whole group (k6, echo servers) can be killed like the runner does.
    const child = spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'src/action.ts')], {
      cwd: REPO_ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        GITHUB_EVENT_NAME: 'schedule',
        GITHUB_EVENT_PATH: files.event,
        GITHUB_STEP_SUMMARY: files.summary,
        GITHUB_OUTPUT: files.output,
        GITHUB_STATE: files.state,
        GITHUB_WORKSPACE: ws,
        RUNNER_TEMP: files.dir,
        INPUT_KUBECONFIG: kubeconfig,
        INPUT_TOKEN: 'x',
      },
    });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const exited = new Promise((r) => child.on('close', r));
    const deadline = Date.now() + 60_000;
    while (!stdout.includes('Measuring') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    assert.ok(stdout.includes('Measuring'), `main step never started measuring:\n${stdout}`);
    // Killed once k6 has its working directory: the run's temporary files must be where post finds them.
    const k6Dirs = async () => {
      const scratch = (await readdir(files.dir)).filter((n) => n.startsWith('mesh-perf-tmp-'));
      return scratch.length === 1 ? (await readdir(join(files.dir, scratch[0]!))).filter((n) => n.startsWith('mesh-perf-k6-')) : [];
    };
    while ((await k6Dirs()).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    assert.equal((await k6Dirs()).length, 1, "k6's working directory is made inside the run's temporary directory");
    process.kill(-child.pid!, 'SIGKILL');
    await exited;

    const state = parseFileCommands(await readFile(files.state, 'utf8'));
    const left = JSON.parse(state[CLEANUP_STATE] ?? '[]') as { path: string; description: string }[];
    assert.deepEqual(
      left.map((i) => i.description),
      ["the run's temporary files", 'temporary kubeconfig'],
      'the temporary files and the kubeconfig are recorded for post',
    );
    assert.ok(
      left.every((i) => existsSync(i.path)),
      'and are still there after the kill',
    );

    const marker = join(files.dir, 'command-ran');
    const items = [
      ...left,
      {
        kind: 'command',
        argv: [process.execPath, '-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ok')`],
        description: 'a cleanup command',
      },
      { kind: 'command', argv: [process.execPath, '-e', 'process.exit(4)'], description: 'a cluster that refuses to go' },
    ];
    const post = await runAction({
      entry: 'src/post.ts',
      files,
      eventName: 'schedule',
      payload: {},
      inputs: {},
      env: { [`STATE_${CLEANUP_STATE}`]: JSON.stringify(items) },
    });
    assert.equal(post.code, 0, 'post never fails the job');
    assert.ok(!existsSync(left[0]!.path), "the run's temporary files are removed, k6's working directory with them");
    assert.ok(!existsSync(left[1]!.path), 'the kubeconfig directory is removed');
    assert.equal(await readFile(marker, 'utf8'), 'ok');
    const warnings = commands(post.stdout, 'warning');
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!.message, /could not remove a cluster that refuses to go: .* exited with 4/);
    assert.deepEqual(
      (await readdir(files.dir)).filter((n) => n.startsWith('mesh-perf-secret-') || n.startsWith('mesh-perf-tmp-')),
      [],
    );

    const empty = await runAction({ entry: 'src/post.ts', files, eventName: 'schedule', payload: {}, inputs: {} });
    assert.equal(empty.code, 0);
    assert.match(empty.stdout, /nothing left to clean up/);
  } finally {
    await rm(files.dir, { recursive: true, force: true });
  }
});
