// The smaller items of issue 17: `help run`, per-command options, errors attributed to an action
// input, YAML merge keys, zod's messages carrying the value seen, plural wording.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { main } from '../../src/cli/main.ts';
import { COMMANDS } from '../../src/cli/registry.ts';
import { commandHelp } from '../../src/cli/args.ts';
import { loadConfig, parseYaml } from '../../src/config/load.ts';
import { validateConfig } from '../../src/config/validate.ts';
import { silentLogger } from '../../src/util/log.ts';

async function cli(args: string[]): Promise<{ code: number; stdout: string }> {
  let stdout = '';
  const code = await main(args, {
    stdout: (t) => void (stdout += t),
    stderr: () => {},
    log: silentLogger,
    cwd: '/',
    signal: new AbortController().signal,
  });
  return { code, stdout };
}

test("help run prints run's help, not the top-level one", async () => {
  const help = await cli(['help', 'run']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^mesh-perf run — /);
});

test('each command lists only the flags it uses; --baseline and --baseline-mode are distinct', () => {
  const options = (name: string) => COMMANDS.find((c) => c.name === name)!.options.map((o) => o.name);
  assert.ok(!options('plan').includes('publish') && !options('plan').includes('history-store') && !options('plan').includes('comment'));
  assert.ok(
    COMMANDS.every((c) => !c.options.some((o) => o.name === 'comment')),
    'comment is a GitHub input only',
  );
  const run = options('run');
  assert.equal(run.filter((o) => o === 'baseline').length, 1);
  assert.ok(run.includes('baseline-mode') && run.includes('history-store') && run.includes('wide'));
  assert.ok(options('up').includes('kubeconfig') && !options('up').includes('rate'));
  assert.match(commandHelp(COMMANDS.find((c) => c.name === 'run')!), /--baseline PATH .*stored results/);
  assert.match(commandHelp(COMMANDS.find((c) => c.name === 'run')!), /--baseline-mode MODE/);
});

test('a bad action input is attributed to the input, not to the config file', async () => {
  await assert.rejects(
    loadConfig({
      defaults: { modes: [{ name: 'a' }], load: { rate: 5 } },
      overrides: { comment: 'sometimes', seed: '-1' },
      overrideOrigin: 'input',
    }),
    (error: Error) => {
      assert.match(error.message, /^the configuration has 2 problems:/);
      assert.match(error.message, /github\.comment \(input comment\): expected one of .*got "sometimes"/);
      assert.match(error.message, /plan\.seed \(input seed\): .*got -1/);
      return true;
    },
  );
});

test('YAML merge keys work as in other YAML tools', () => {
  const raw = parseYaml('x-load: &load { rate: 5, duration: 2s }\nload:\n  <<: *load\n  repetitions: 2\n', 'f.yaml') as { load: unknown };
  assert.deepEqual(raw.load, { rate: 5, duration: '2s', repetitions: 2 });
});

test("zod's range messages say the value seen", () => {
  assert.throws(
    () => validateConfig({ modes: [{ name: 'a', local: { hops: 9 } }], load: { rate: 5 } }),
    /modes\[0\]\.local\.hops: expected a number at most 4, got 9/,
  );
  assert.throws(
    () => validateConfig({ modes: [{ name: 'a' }], load: { rate: 5, path: 'x' } }),
    /load\.path: expected text starting with "\/", got "x"/,
  );
});

test('plan says "1 trial" and days for extreme plans', async () => {
  const { formatEstimate } = await import('../../src/cli/preset-summary.ts');
  assert.equal(formatEstimate(1e12), '11,574,074 days');
  assert.equal(formatEstimate(3 * 3600 + 120), '3h 2m');
});

test("help text fits 80 columns: the tool's and every command's", async () => {
  const { mainHelp } = await import('../../src/cli/main.ts');
  const texts = [mainHelp(80), ...COMMANDS.map((c) => commandHelp(c, 80))];
  for (const text of texts) for (const line of text.split('\n')) assert.ok([...line].length <= 80, `${[...line].length}: ${line}`);
});

test('plan --preset P --rate 50: the profile is named 50rps and the header describes what will run', async () => {
  const { withTempDir } = await import('../support/cli.ts');
  const { writeFile } = await import('node:fs/promises');
  const { join } = await import('node:path');
  await withTempDir(async (dir) => {
    let stdout = '';
    const io = {
      stdout: (t: string) => void (stdout += t),
      stderr: () => {},
      log: silentLogger,
      cwd: dir,
      signal: new AbortController().signal,
    };
    assert.equal(await main(['plan', '--preset', 'ambient-modes', '--rate', '50'], io), 0);
    assert.match(stdout, /50rps: open model, 50 rps/);
    assert.doesNotMatch(stdout, /200rps|200 rps/);
    // A file beside the preset: the header shows the file's modes, not the preset's.
    await writeFile(
      join(dir, 'f.yaml'),
      'preset: ambient-modes\nplatform: local\nmodes: [{ name: baseline, local: { hops: 0 } }, { name: linkerd, mesh: linkerd, local: { hops: 2 } }]\n',
    );
    stdout = '';
    assert.equal(await main(['plan', '--config', 'f.yaml', '--preset', 'ambient-modes'], io), 0);
    assert.match(stdout, /modes: baseline, linkerd\n/);
    assert.match(stdout, /^2 trials/m);
  });
});

test("a preset's pod counts and ingress are left out on local; the same settings of the user's are refused", async () => {
  const sources = (extra: Record<string, unknown>) => ({ defaults: { preset: 'kyma-sidecar', platform: 'local', ...extra } });
  const config = await loadConfig(sources({}));
  assert.equal(config.kubernetes.ingress, undefined);
  await assert.rejects(
    loadConfig({ overrides: { preset: 'kyma-sidecar', platform: 'local' }, defaults: { kubernetes: { ingress: { replicas: 2 } } } }),
    /kubernetes\.ingress.*does not apply to platform "local"/,
  );
});
