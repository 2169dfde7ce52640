// A/B from a PR's base config: each mode whose arm-able settings changed runs as two arms (base
// with the base's values), and every other mode says why it is compared with history instead.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { armsFromBase, describeArmsFromBase } from '../../src/config/arms-from-base.ts';
import { validateConfig } from '../../src/config/validate.ts';

const SOURCE = '--ab-base-config base.yaml';

test('a changed delay, hop count or env makes two arms: base with the base values, head as written', () => {
  const base = [
    { name: 'direct' },
    { name: 'proxy', local: { hops: 1 }, env: { MODE: 'a', KEEP: 'x' } },
    { name: 'two', local: { hops: 2, delay: '1ms' } },
  ];
  const head = [
    { name: 'direct' },
    { name: 'proxy', local: { hops: 1, delay: '2ms' }, env: { MODE: 'b', KEEP: 'x' } },
    { name: 'two', local: { hops: 1 } },
  ];
  const { modes, summary } = armsFromBase(head, base, SOURCE);
  assert.deepEqual(modes, [
    { name: 'direct' },
    {
      name: 'proxy',
      local: { hops: 1, delay: '2ms' },
      env: { MODE: 'b', KEEP: 'x' },
      arms: { base: { local: { delay: '0ms' }, env: { MODE: 'a', KEEP: 'x' } }, head: {} },
    },
    { name: 'two', local: { hops: 1 }, arms: { base: { local: { hops: 2, delay: '1ms' } }, head: {} } },
  ]);
  assert.deepEqual(summary.armed, [
    { mode: 'proxy', differs: ['local.delay', 'env.MODE'] },
    { mode: 'two', differs: ['local.hops', 'local.delay'] },
  ]);
  assert.deepEqual(summary.history, []);
  // What it derives is a config that validates and runs both arms of each changed mode.
  const config = validateConfig({ platform: 'local', modes, load: { rate: 50 } });
  assert.deepEqual(
    config.modes.map((m) => m.name),
    ['direct', 'proxy-base', 'proxy-head', 'two-base', 'two-head'],
  );
  assert.deepEqual(config.modes.find((m) => m.name === 'proxy-base')!.local, { hops: 1, delay: '0ms' });
  assert.deepEqual(config.modes.find((m) => m.name === 'proxy-head')!.local, { hops: 1, delay: '2ms' });
});

test('modes that two arms cannot hold are compared with history, each saying why', () => {
  const base = [
    { name: 'svc', url: 'http://a.example/' },
    { name: 'meshed', mesh: 'istio-sidecar' },
    { name: 'labelled', namespaceLabels: { team: 'a' } },
    { name: 'fixed', url: 'http://b.example/' },
  ];
  const head = [
    { name: 'svc', url: 'http://a.example/' },
    { name: 'meshed', mesh: 'linkerd' },
    { name: 'labelled', namespaceLabels: { team: 'a', extra: 'y' } },
    { name: 'fixed', url: 'http://b.example/', arms: { head: { url: 'http://c.example/' } } },
    { name: 'fresh' },
  ];
  const { modes, summary } = armsFromBase(head, base, SOURCE);
  assert.deepEqual(modes, head, 'nothing armed');
  assert.deepEqual(summary.armed, []);
  assert.deepEqual(summary.history, [
    { mode: 'meshed', reason: 'its mesh changed ("istio-sidecar" → "linkerd"), which two arms of one run cannot differ in' },
    {
      mode: 'labelled',
      reason: 'its namespaceLabels gained extra, which the base lacks: an arm can add or change namespaceLabels keys, not remove them',
    },
    { mode: 'fixed', reason: 'it has arms of its own (modes[].arms), which are run as written' },
    { mode: 'fresh', reason: `it is new: ${SOURCE} has no mode "fresh"` },
  ]);
  assert.deepEqual(describeArmsFromBase(summary).slice(-1), [
    `A/B from ${SOURCE}: no mode differs in what two arms can hold; every mode is compared with history`,
  ]);
});

test('a url the base did not have cannot be unset by an arm; a changed url can', () => {
  const { summary } = armsFromBase([{ name: 'svc', url: 'http://new.example/' }], [{ name: 'svc' }], SOURCE);
  assert.deepEqual(summary.history, [{ mode: 'svc', reason: 'its url is new ("http://new.example/"), and an arm cannot unset it' }]);
  const changed = armsFromBase([{ name: 'svc', url: 'http://new.example/' }], [{ name: 'svc', url: 'http://old.example/' }], SOURCE);
  assert.deepEqual(changed.modes, [{ name: 'svc', url: 'http://new.example/', arms: { base: { url: 'http://old.example/' }, head: {} } }]);
});
