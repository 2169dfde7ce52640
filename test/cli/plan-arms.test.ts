// `mesh-perf plan` with arms: both arms in the trial table, the A/B comparison, the looks and the
// budget; a time budget too short for one look is refused with the minimum (exit 2).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCliInProcess, withTempDir } from '../support/cli.ts';

const CONFIG = `platform: local
modes:
  - name: direct
  - name: proxy
    local: { hops: 1 }
    arms:
      head: { local: { delay: 1ms } }
load: { rate: 100, duration: 10s, warmup: 2s }
`;

test('plan shows both arms in every block, the A/B comparison, the looks and the budget', async () => {
  await withTempDir(async (dir) => {
    await writeFile(join(dir, 'mesh-perf.yaml'), CONFIG);
    const { code, stdout, stderr } = await runCliInProcess(['plan', '--seed', '7'], { cwd: dir, columns: 1000 });
    assert.equal(code, 0, stderr);
    for (let block = 1; block <= 10; block++)
      for (const mode of ['direct', 'proxy-base', 'proxy-head'])
        assert.match(stdout, new RegExp(`^\\d+\\s+${block}\\s+${mode}\\s+100rps\\s+${block}/10 `, 'm'), `${mode} in block ${block}`);
    assert.match(
      stdout.replace(/\n/g, ' '),
      /A\/B: proxy-head against proxy-base on p50: pass when the change is shown under 5% and 0\.05 ms/m,
    );
    // What each arm runs with, where the two differ.
    assert.match(stdout, /^ {2}base arm proxy-base: local delay=none$/m);
    assert.match(stdout, /^ {2}head arm proxy-head: local delay=1ms$/m);
    // 3 modes × 10 blocks × 12 s = 360 s first; 2 arms × 12 s = 24 s a later block; (720 − 360) ÷ 24 = 15 more: 25 blocks, 12 m.
    // (plan wraps its notes at 100 columns)
    const text = stdout.replace(/\n/g, ' ');
    assert.match(
      text,
      /looking at 10, 20, 25 blocks; at most 25 blocks, ~12m of load \(plan\.budget\.maxDuration 12m holds 25 blocks at the nominal repetition length, not plan\.budget\.maxBlocks 40: the last look is placed where the time ends\)/,
    );
    assert.match(text, /moves a look the time cannot reach to where the time ends; the results say which looks it reached/);
    // The run's one alpha, how each arm's servers are measured, and what the budget can decide.
    assert.match(text, /fail when significantly slower \(alpha 0\.01 over all looks\)/);
    assert.match(text, /Instances: each arm's echo server \(and its proxy hops\) is started afresh for every block/);
    assert.match(
      text,
      /A\/B p50: at 25 blocks this budget fails a slowdown of \+\d\.\d% or more with 90% power, and passes a clean change with 90% power when the practical minimum is at least \d\.\d% \(it is 5%\), if the blocks spread 5%/,
    );
    const json = JSON.parse((await runCliInProcess(['plan', '--json'], { cwd: dir, columns: 1000 })).stdout);
    assert.deepEqual(json.arms, [{ of: 'proxy', base: 'proxy-base', head: 'proxy-head' }]);
    assert.deepEqual(json.looks, [10, 20, 25]);
    assert.equal(json.ab.gates, 1);
    assert.ok(json.ab.smallestDecidable.p50 > 0.02 && json.ab.smallestDecidable.p50 < 0.06, JSON.stringify(json.ab));
    assert.equal(json.repetitions, 'auto');
    assert.deepEqual(json.trials.find((t: { mode: string }) => t.mode === 'proxy-head').arm, { of: 'proxy', side: 'head' });
  });
});

test('plan with a time budget shorter than the first look: exit 2 with the minimum', async () => {
  await withTempDir(async (dir) => {
    await writeFile(join(dir, 'mesh-perf.yaml'), CONFIG);
    const { code, stderr } = await runCliInProcess(['plan', '--max-duration', '1m'], { cwd: dir, columns: 1000 });
    assert.equal(code, 2);
    assert.match(
      stderr,
      /plan\.budget\.maxDuration: "1m" is too short for even one look: the first look's 10 blocks take 6 m 0 s of load; expected at least 6m/,
    );
  });
});

test('plan with repetitions N: one look, no budget line', async () => {
  await withTempDir(async (dir) => {
    await writeFile(join(dir, 'mesh-perf.yaml'), CONFIG);
    const { code, stdout } = await runCliInProcess(['plan', '--repetitions', '5'], { cwd: dir, columns: 1000 });
    assert.equal(code, 0);
    assert.match(stdout, /15 trials/);
    assert.doesNotMatch(stdout, /load\.repetitions auto/);
  });
});

test('plan --ab-base-config: the modes whose settings changed since the base run as two arms; the rest say why not', async () => {
  await withTempDir(async (dir) => {
    // The head (mesh-perf.yaml) changes proxy's delay and adds a mode; the base is the PR base's config.
    await writeFile(
      join(dir, 'mesh-perf.yaml'),
      'platform: local\nmodes:\n  - name: direct\n  - name: proxy\n    local: { hops: 1, delay: 1ms }\n  - name: fresh\nload: { rate: 100 }\n',
    );
    await writeFile(
      join(dir, 'base.yaml'),
      'platform: local\nmodes:\n  - name: direct\n  - name: proxy\n    local: { hops: 1 }\nload: { rate: 100 }\n',
    );
    const { code, stdout, stderr } = await runCliInProcess(['plan', '--ab-base-config', 'base.yaml', '--seed', '7'], {
      cwd: dir,
      columns: 1000,
    });
    assert.equal(code, 0, stderr);
    const text = stdout.replace(/\n/g, ' ');
    assert.match(text, /A\/B from --ab-base-config base\.yaml: mode proxy runs as two arms, base and head \(local\.delay "0ms" → "1ms"\)/);
    assert.match(
      text,
      /A\/B from --ab-base-config base\.yaml: mode fresh is compared with history instead: it is new: --ab-base-config base\.yaml has no mode "fresh"/,
    );
    assert.match(text, /A\/B: proxy-head against proxy-base on p50/);
    for (const mode of ['direct', 'proxy-base', 'proxy-head', 'fresh'])
      assert.match(stdout, new RegExp(`^\\d+\\s+1\\s+${mode}\\s`, 'm'), mode);
    const json = JSON.parse(
      (await runCliInProcess(['plan', '--ab-base-config', 'base.yaml', '--json'], { cwd: dir, columns: 1000 })).stdout,
    );
    assert.deepEqual(json.armsFromBase.armed, [{ mode: 'proxy', differs: ['local.delay'], values: [{ base: '"0ms"', head: '"1ms"' }] }]);

    const missing = await runCliInProcess(['plan', '--ab-base-config', 'nowhere.yaml'], { cwd: dir, columns: 1000 });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--ab-base-config nowhere\.yaml: no such file; expected the config to A\/B against/);
    // The hint is a command that works: git's `<rev>:./<path>`, relative to here, never an absolute path.
    const absolute = await runCliInProcess(['plan', '--config', join(dir, 'mesh-perf.yaml'), '--ab-base-config', 'nowhere.yaml'], {
      cwd: dir,
      columns: 1000,
    });
    assert.match(absolute.stderr.replace(/\s+/g, ' '), /git show origin\/main:\.\/mesh-perf\.yaml > base\.yaml/);
  });
});

test('plan --ab-head-image: every cluster mode that can runs two app builds side by side; bad or lone images are usage errors', async () => {
  await withTempDir(async (dir) => {
    await writeFile(
      join(dir, 'mesh-perf.yaml'),
      'platform: kubeconfig\nmodes:\n  - name: baseline\n  - name: istio-ambient\nload: { rate: 100 }\nkubernetes: { images: { echo: "example.test/app:1.0.0" } }\n',
    );
    const plan = await runCliInProcess(['plan', '--ab-head-image', 'example.test/app:2.0.0', '--seed', '7'], { cwd: dir, columns: 1000 });
    assert.equal(plan.code, 0, plan.stderr);
    const text = plan.stdout.replace(/\n/g, ' ');
    assert.match(
      text,
      /A\/B from --ab-head-image: mode baseline runs as two arms, base and head \(echoImage "example\.test\/app:1\.0\.0" → "example\.test\/app:2\.0\.0"\)/,
    );
    assert.match(text, /A\/B from --ab-head-image: mode istio-ambient is compared with history instead: .*one ztunnel per node/);
    assert.match(text, /A\/B: baseline-head against baseline-base on p50/);
    const json = JSON.parse(
      (
        await runCliInProcess(
          ['plan', '--ab-base-image', 'example.test/app:1.5.0', '--ab-head-image', 'example.test/app:2.0.0', '--json'],
          { cwd: dir },
        )
      ).stdout,
    );
    assert.equal(json.armsFromBase.source, '--ab-base-image / --ab-head-image');
    assert.deepEqual(json.armsFromBase.armed[0].values, [{ base: '"example.test/app:1.5.0"', head: '"example.test/app:2.0.0"' }]);

    for (const [args, message] of [
      [['--ab-head-image', 'app:latest'], /--ab-head-image "app:latest": expected an echo server pinned by digest/],
      [['--ab-base-image', 'app:1.0.0'], /--ab-base-image app:1\.0\.0: given without --ab-head-image/],
      [
        ['--ab-head-image', 'app:2.0.0', '--ab-base-config', 'mesh-perf.yaml'],
        /expected one way to make the arms, the images or the base config/,
      ],
    ] as const) {
      const refused = await runCliInProcess(['plan', ...args], { cwd: dir, columns: 1000 });
      assert.equal(refused.code, 2, args.join(' '));
      assert.match(refused.stderr, message);
    }
  });
});

test('plan with a p99 A/B gate: the smallest p99 change the budget can decide, and a minimum below it said so', async () => {
  await withTempDir(async (dir) => {
    await writeFile(
      join(dir, 'mesh-perf.yaml'),
      `platform: local
modes:
  - name: proxy
    local: { hops: 1 }
    arms:
      head: { local: { delay: 1ms } }
load: { rate: 1000 }
gates:
  ab: { statistics: [p50, p99] }
`,
    );
    const { code, stdout, stderr } = await runCliInProcess(['plan'], { cwd: dir, columns: 1000 });
    assert.equal(code, 0, stderr);
    const text = stdout.replace(/\n/g, ' ');
    assert.match(text, /alpha 0\.01 over all looks and this run's 2 A\/B gates, Holm/);
    const p99 =
      /A\/B p99: at 40 blocks this budget fails a slowdown of \+(\d+\.\d)% or more with 90% power, and passes a clean change with 90% power when the practical minimum is at least \d+\.\d% \(it is 5%\), if the blocks spread 29% \(a planning figure with bursty stalls; the run measures its own\): the practical minimum 5% is below the slowdown it can catch, so this gate will mostly end inconclusive; set gates\.ab\.minEffectPct\.p99 to at least (\d+)/.exec(
        text,
      );
    assert.ok(p99, text);
    assert.ok(Number(p99[1]) > 15 && Number(p99[1]) < 30, p99[1]);
    assert.doesNotMatch(text, /A\/B p50: [^.]*mostly end inconclusive/, 'p50 at 5 % is decidable');
  });
});

test('plan with a p99 A/B gate on repetitions too short to hold it: exit 2 naming the field and the minimum', async () => {
  await withTempDir(async (dir) => {
    await writeFile(join(dir, 'mesh-perf.yaml'), `${CONFIG}gates:\n  ab: { statistics: [p99] }\n`);
    const { code, stderr } = await runCliInProcess(['plan'], { cwd: dir, columns: 1000 });
    assert.equal(code, 2);
    assert.match(
      stderr.replace(/\s+/g, ' '),
      /gates\.ab\.statistics\[0\]: p99 needs at least 5,000 requests per repetition \(50 beyond its quantile\) to hold it; load gives about 1,000 \(100 rps × 10 s\): expected load\.duration of at least 50s at this rate, or load\.rate of at least 500/,
    );
  });
});
