// A/B from a PR's base config: each mode whose arm-able settings changed runs as two arms (base
// with the base's values), and every other mode says why it is compared with history instead.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { armsFromBase, armsFromImages } from '../../src/config/arms-from-base.ts';
import { armsFromBaseLines } from '../../src/report/arms-from-base-text.ts';
import { validateConfig } from '../../src/config/validate.ts';
import { istioRevisions } from '../../src/config/istio-revisions.ts';

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
    {
      mode: 'proxy',
      differs: ['local.delay', 'env.MODE'],
      values: [
        { base: '"0ms"', head: '"2ms"' },
        { base: '"a"', head: '"b"' },
      ],
    },
    {
      mode: 'two',
      differs: ['local.hops', 'local.delay'],
      values: [
        { base: '2', head: '1' },
        { base: '"1ms"', head: '"0ms"' },
      ],
    },
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
  assert.deepEqual(armsFromBaseLines(summary).slice(-1), [
    `A/B from ${SOURCE}: no mode differs in what two arms can hold; every mode is compared with history`,
  ]);
});

test('a url the base did not have cannot be unset by an arm; a changed url can', () => {
  const { summary } = armsFromBase([{ name: 'svc', url: 'http://new.example/' }], [{ name: 'svc' }], SOURCE);
  assert.deepEqual(summary.history, [{ mode: 'svc', reason: 'its url is new ("http://new.example/"), and an arm cannot unset it' }]);
  const changed = armsFromBase([{ name: 'svc', url: 'http://new.example/' }], [{ name: 'svc', url: 'http://old.example/' }], SOURCE);
  assert.deepEqual(changed.modes, [{ name: 'svc', url: 'http://new.example/', arms: { base: { url: 'http://old.example/' }, head: {} } }]);
});

test('in a cluster: Linkerd proxy annotations make two arms; an ambient mode and a changed url are compared with history, saying why', () => {
  const base = [
    { name: 'linkerd', namespaceAnnotations: { 'config.linkerd.io/proxy-cpu-limit': '1' } },
    { name: 'istio-ambient', namespaceLabels: { team: 'a' } },
    { name: 'baseline', env: { PATH_SUFFIX: '/a' } },
  ];
  const head = [
    { name: 'linkerd', namespaceAnnotations: { 'config.linkerd.io/proxy-cpu-limit': '2' } },
    { name: 'istio-ambient', namespaceLabels: { team: 'b' } },
    { name: 'baseline', env: { PATH_SUFFIX: '/a' }, url: 'http://x/' },
  ];
  const { modes, summary } = armsFromBase(head, base, SOURCE, { platform: 'kind' });
  assert.deepEqual(summary.armed, [
    { mode: 'linkerd', differs: ['namespaceAnnotations.config.linkerd.io/proxy-cpu-limit'], values: [{ base: '"1"', head: '"2"' }] },
  ]);
  assert.match(
    armsFromBaseLines(summary)[0]!,
    /mode linkerd runs as two arms, base and head \(namespaceAnnotations\.config\.linkerd\.io\/proxy-cpu-limit "1" → "2"\)/,
  );
  assert.deepEqual(
    summary.history.map((h) => h.mode),
    ['istio-ambient', 'baseline'],
  );
  assert.match(summary.history[0]!.reason, /one ztunnel per node/);
  assert.match(summary.history[1]!.reason, /its url changed .* which two arms of one run cannot differ in/);
  // The Linkerd arms validate on kind: two namespaces, each with its own proxy setting.
  const config = validateConfig({ platform: 'kind', modes: (modes as object[]).slice(0, 1), load: { rate: 10 } });
  assert.deepEqual(
    config.modes.map((m) => [m.name, m.namespaceAnnotations?.['config.linkerd.io/proxy-cpu-limit']]),
    [
      ['linkerd-base', '1'],
      ['linkerd-head', '2'],
    ],
  );
});

test('in a cluster: a PR that bumps kubernetes.images.echo arms every mode that can (base arm: the base image); a mode of its own echoImage too', () => {
  const base = [
    { name: 'baseline' },
    { name: 'linkerd' },
    { name: 'istio-ambient' },
    { name: 'pinned', mesh: 'existing', echoImage: 'app:1.0.0' },
  ];
  const head = [
    { name: 'baseline' },
    { name: 'linkerd' },
    { name: 'istio-ambient' },
    { name: 'pinned', mesh: 'existing', echoImage: 'app:1.1.0' },
  ];
  const { modes, summary } = armsFromBase(head, base, SOURCE, { platform: 'kind', echoImages: { base: 'app:1.0.0', head: 'app:2.0.0' } });
  assert.deepEqual(summary.armed, [
    { mode: 'baseline', differs: ['echoImage'], values: [{ base: '"app:1.0.0"', head: '"app:2.0.0"' }] },
    { mode: 'linkerd', differs: ['echoImage'], values: [{ base: '"app:1.0.0"', head: '"app:2.0.0"' }] },
    { mode: 'pinned', differs: ['echoImage'], values: [{ base: '"app:1.0.0"', head: '"app:1.1.0"' }] },
  ]);
  assert.deepEqual(
    summary.history.map((h) => h.mode),
    ['istio-ambient'],
  );
  // The head arm runs the mode as written (the run's image); the base arm names the base's.
  assert.deepEqual(
    (modes as { name: string; arms?: unknown }[]).map((m) => [m.name, m.arms]),
    [
      ['baseline', { base: { echoImage: 'app:1.0.0' }, head: {} }],
      ['linkerd', { base: { echoImage: 'app:1.0.0' }, head: {} }],
      ['istio-ambient', undefined],
      ['pinned', { base: { echoImage: 'app:1.0.0' }, head: {} }],
    ],
  );
  // The same images: nothing differs, nothing is armed.
  assert.deepEqual(
    armsFromBase(head.slice(0, 2), base.slice(0, 2), SOURCE, { platform: 'kind', echoImages: { base: 'app:1.0.0', head: 'app:1.0.0' } })
      .summary.armed,
    [],
  );
});

test("in a cluster: server manifests edited in place (the base's copy differs) arm every mode that runs them; an image change under them arms nothing", () => {
  const copy = '/runner/tmp/mesh-perf-pr-base-files-x/1-server.yaml';
  const modes = [{ name: 'baseline' }, { name: 'linkerd' }, { name: 'own', mesh: 'existing', serverManifests: 'own.yaml' }];
  const servers = { base: copy, head: 'server.yaml', shown: { [copy]: 'server.yaml at abc1234' } };
  const { modes: armed, summary } = armsFromBase(modes, modes, SOURCE, {
    platform: 'kubeconfig',
    echoImages: { base: 'app:1', head: 'app:2' },
    servers,
  });
  assert.deepEqual(summary.armed, [
    { mode: 'baseline', differs: ['serverManifests'], values: [{ base: '"server.yaml at abc1234"', head: '"server.yaml"' }] },
    { mode: 'linkerd', differs: ['serverManifests'], values: [{ base: '"server.yaml at abc1234"', head: '"server.yaml"' }] },
  ]);
  // The base arm deploys the base's copy; the head arm runs the mode as written (the checkout's file).
  assert.deepEqual(
    (armed as { name: string; arms?: unknown }[]).map((m) => [m.name, m.arms]),
    [
      ['baseline', { base: { serverManifests: copy }, head: {} }],
      ['linkerd', { base: { serverManifests: copy }, head: {} }],
      ['own', undefined],
    ],
  );
  // The same file at both commits: the images differ, but server manifests name their own.
  const same = { base: 'server.yaml', head: 'server.yaml' };
  assert.deepEqual(
    armsFromBase(modes, modes, SOURCE, { platform: 'kubeconfig', echoImages: { base: 'app:1', head: 'app:2' }, servers: same }).summary
      .armed,
    [],
  );
});

test("in a cluster: a PR that upgrades Istio arms every istio-sidecar mode with its own revision (base arm: the base's Istio); ambient modes go to history", () => {
  const modes = [
    { name: 'baseline' },
    { name: 'istio-sidecar' },
    { name: 'istio-ambient' },
    { name: 'istio-waypoint' },
    { name: 'linkerd' },
  ];
  const istio = {
    base: { version: '1.30.3', set: {} },
    head: { version: '1.31.0', hub: 'mirror.test/istio', set: { 'values.pilot.env.X': '1' } },
  };
  const { modes: armed, summary } = armsFromBase(modes, modes, SOURCE, {
    platform: 'kind',
    echoImages: { base: 'app:1', head: 'app:1' },
    istio,
  });
  const istioChange = {
    differs: ['istio.version', 'istio.hub', 'istio.set'],
    values: [
      { base: '"1.30.3"', head: '"1.31.0"' },
      { base: 'none', head: '"mirror.test/istio"' },
      { base: '{}', head: '{"values.pilot.env.X":"1"}' },
    ],
  };
  assert.deepEqual(summary.armed, [
    { mode: 'istio-sidecar', ...istioChange },
    { mode: 'istio-waypoint', ...istioChange },
  ]);
  assert.deepEqual(
    summary.history.map((h) => h.mode),
    ['istio-ambient'],
  );
  assert.match(summary.history[0]!.reason, /one ztunnel per node/);
  // The base arm installs the base's Istio (Istio's own hub, as the base had none); the head arm the run's.
  const sidecar = (armed as { name: string; arms?: unknown }[]).find((m) => m.name === 'istio-sidecar');
  assert.deepEqual(sidecar!.arms, { base: { istio: { version: '1.30.3', set: {}, hub: 'docker.io/istio' } }, head: {} });
  const config = validateConfig({ platform: 'kind', modes: armed, load: { rate: 10 }, kubernetes: { istio: istio.head } });
  assert.deepEqual(
    istioRevisions(config.modes, config.kubernetes.istio).map((r) => [r.mode, r.version, r.hub, r.set]),
    [
      ['istio-sidecar-base', '1.30.3', 'docker.io/istio', {}],
      ['istio-sidecar-head', '1.31.0', 'mirror.test/istio', { 'values.pilot.env.X': '1' }],
      ['istio-waypoint-base', '1.30.3', 'docker.io/istio', {}],
      ['istio-waypoint-head', '1.31.0', 'mirror.test/istio', { 'values.pilot.env.X': '1' }],
    ],
  );
  // The same Istio on both sides: nothing is armed.
  assert.deepEqual(
    armsFromBase(modes, modes, SOURCE, { platform: 'kind', istio: { base: istio.head, head: istio.head } }).summary.armed,
    [],
  );
});

test('two images given outright (ab-head-image): every mode that can runs both; off a cluster it is unavailable, saying why', () => {
  const modes = [{ name: 'baseline' }, { name: 'istio-ambient' }, { name: 'own', arms: { head: { env: { A: '1' } } } }];
  const { modes: armed, summary } = armsFromImages(modes, { head: 'app:2.0.0' }, '--ab-head-image', 'kubeconfig', 'app:1.0.0');
  assert.deepEqual(summary.armed, [{ mode: 'baseline', differs: ['echoImage'], values: [{ base: '"app:1.0.0"', head: '"app:2.0.0"' }] }]);
  assert.deepEqual(
    summary.history.map((h) => [h.mode, /ztunnel|arms of its own/.test(h.reason)]),
    [
      ['istio-ambient', true],
      ['own', true],
    ],
  );
  assert.deepEqual((armed as { arms?: unknown }[])[0]!.arms, { base: {}, head: { echoImage: 'app:2.0.0' } });
  const withBase = armsFromImages(modes.slice(0, 1), { base: 'app:1.5.0', head: 'app:2.0.0' }, 'x', 'kind', 'app:1.0.0');
  assert.deepEqual((withBase.modes as { arms?: unknown }[])[0]!.arms, {
    base: { echoImage: 'app:1.5.0' },
    head: { echoImage: 'app:2.0.0' },
  });
  const local = armsFromImages(modes, { head: 'app:2.0.0' }, '--ab-head-image', 'local', 'app:1.0.0');
  assert.equal(local.modes, modes);
  assert.match(
    armsFromBaseLines(local.summary)[0]!,
    /--ab-head-image: not available \(an echo image is deployed only on the kind and kubeconfig platforms, not on "local"\)/,
  );
});
