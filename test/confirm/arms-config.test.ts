// A confirmation run's config, from the later run's stored config: the series' mode as a mode with
// arms per group of settings (base: the earlier run's values, head: the group's later values), the
// series' profile measured until decided, only the A/B gate on, and what validation needs to read
// it again (replicas for arms, images not mirrored twice, a ratio series' baseline beside an A/A).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AA_MARKER, confirmationConfig } from '../../src/confirm/arms-config.ts';
import { settingsDiff, withSettings } from '../../src/confirm/settings.ts';
import { validateConfig } from '../../src/config/validate.ts';
import { storedRun } from './support.ts';

const series = { profile: '100rps', mode: 'svc', metric: 'p50' };
const OPTIONS = { maxDuration: '9m', duration: '1s', warmup: '0s' };

test('local: one group is the mode itself with two arms; several are modes of their own; the A/A is told apart by an env variable', () => {
  const before = storedRun({ platform: 'local', modes: [{ name: 'base' }, { name: 'svc', local: { delay: '20ms' }, env: { A: '1' } }] });
  const after = storedRun({ platform: 'local', modes: [{ name: 'base' }, { name: 'svc', local: { delay: '24ms' }, env: { A: '2' } }] });
  const diff = settingsDiff(before, after, series);
  const raw = confirmationConfig(after, series, [{ settings: ['env.A', 'local.delay'], base: diff.before, head: diff.after }], OPTIONS);
  const config = validateConfig(raw);
  assert.deepEqual(
    config.modes.map((m) => [m.name, m.local?.delay, m.env]),
    [
      ['svc-base', '20ms', { A: '1' }],
      ['svc-head', '24ms', { A: '2' }],
    ],
  );
  assert.equal(config.profiles[0]!.untilDecided, true);
  assert.equal(config.profiles[0]!.duration, '1s');
  assert.equal(config.plan.budget.maxDuration, '9m');
  assert.equal(config.gates.regression.enabled, false);
  assert.equal(config.gates.changePoint, 'off');
  assert.deepEqual(config.gates.ab.statistics, ['p50']);
  const groups = [['env.A'], ['local.delay']].map((settings) => ({
    settings,
    base: diff.before,
    head: withSettings(diff.before, diff.after, settings),
  }));
  const two = validateConfig(confirmationConfig(after, series, groups, OPTIONS));
  assert.deepEqual(
    two.modes.map((m) => [m.name, m.local?.delay, m.env?.A]),
    [
      ['svc-g1-base', '20ms', '1'],
      ['svc-g1-head', '20ms', '2'],
      ['svc-g2-base', '20ms', '1'],
      ['svc-g2-head', '24ms', '1'],
    ],
  );
  const aa = validateConfig(
    confirmationConfig(after, { ...series, metric: 'ratio' }, [{ settings: [], base: diff.after, head: diff.after }], {
      ...OPTIONS,
      alongside: ['base'],
    }),
  );
  assert.deepEqual(
    aa.modes.map((m) => [m.name, m.env?.[AA_MARKER]]),
    [
      ['svc-base', 'base'],
      ['svc-head', 'head'],
      ['base', undefined],
    ],
  );
  assert.equal(aa.baseline, 'base', "a ratio series' level is against its baseline");
});

test('a cluster: the mode keeps its mesh under a new name, arms run on two pods each, mirrored images are not mirrored again', () => {
  const run = (image: string, version: string) =>
    storedRun({
      platform: 'kind',
      modes: [{ name: 'istio-sidecar' }],
      kubernetes: { images: { echo: image, registry: 'mirror.example/hub' }, istio: { version } },
    });
  const before = run('fortio/fortio:1.69.4', '1.29.2');
  const after = run('fortio/fortio:1.70.0', '1.30.3');
  const cp = { ...series, mode: 'istio-sidecar' };
  const diff = settingsDiff(before, after, cp);
  assert.deepEqual(
    diff.carried.map((c) => c.path),
    ['echoImage', 'istio'],
  );
  const groups = [['echoImage'], ['istio']].map((settings) => ({
    settings,
    base: diff.before,
    head: withSettings(diff.before, diff.after, settings),
  }));
  const config = validateConfig(confirmationConfig(after, cp, groups, OPTIONS));
  assert.equal(config.kubernetes.replicas, 2);
  assert.deepEqual(
    config.modes.map((m) => [m.name, m.mesh, m.echoImage, m.istio?.version]),
    [
      ['istio-sidecar-g1-base', 'istio-sidecar', 'mirror.example/hub/fortio/fortio:1.69.4', undefined],
      ['istio-sidecar-g1-head', 'istio-sidecar', 'mirror.example/hub/fortio/fortio:1.70.0', undefined],
      ['istio-sidecar-g2-base', 'istio-sidecar', 'mirror.example/hub/fortio/fortio:1.69.4', '1.29.2'],
      ['istio-sidecar-g2-head', 'istio-sidecar', 'mirror.example/hub/fortio/fortio:1.69.4', '1.30.3'],
    ],
  );
  assert.equal(config.kubernetes.images.echo, 'mirror.example/hub/fortio/fortio:1.70.0');
});

test('a p99 series: repetitions long enough to hold the quantile, at the tail minimum the config gives', () => {
  const run = (delay: string) =>
    storedRun({
      platform: 'local',
      modes: [{ name: 'svc', local: { delay } }],
      load: { rate: 200, duration: '1s', warmup: '0s' },
      gates: { ab: { minEffectPct: { p99: 30 } } },
    });
  const cp = { profile: '200rps', mode: 'svc', metric: 'p99' };
  const diff = settingsDiff(run('20ms'), run('24ms'), cp);
  const config = validateConfig(
    confirmationConfig(run('24ms'), cp, [{ settings: ['local.delay'], base: diff.before, head: diff.after }], OPTIONS),
  );
  assert.equal(config.profiles[0]!.duration, '25s', '5,000 requests at 200 rps');
  assert.deepEqual(config.gates.ab.statistics, ['p99']);
  assert.equal(config.gates.ab.minEffectPct, 30);
});
