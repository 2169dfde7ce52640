import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, validateConfig } from '../../src/config/validate.ts';
import { parseYaml } from '../../src/config/load.ts';
import { UsageError } from '../../src/util/errors.ts';

const good = {
  platform: 'endpoints',
  modes: [
    { name: 'baseline', url: 'http://127.0.0.1:18081/' },
    { name: 'candidate', url: 'http://127.0.0.1:18082/' },
  ],
  load: { rate: 1000, duration: '10s', warmup: '2s', repetitions: 3 },
};

test('the acceptance config validates and normalizes', () => {
  const config = validateConfig(good);
  assert.equal(config.baseline, 'baseline');
  assert.equal(config.profiles.length, 1);
  assert.equal(config.profiles[0]!.durationMs, 10_000);
  assert.equal(config.profiles[0]!.warmupMs, 2000);
  assert.equal(config.profiles[0]!.name, '1000rps');
  assert.equal(config.profiles[0]!.model, 'open');
});

const with_ = (patch: (c: any) => void) => {
  const copy = structuredClone(good) as any;
  patch(copy);
  return copy;
};

// Each bad input must produce a message naming the field path, the value and what was expected.
const BAD: { name: string; raw: unknown; path: string; includes: string[] }[] = [
  { name: 'rate ≤ 0', raw: with_((c) => (c.load.rate = 0)), path: 'load.rate', includes: ['> 0', 'got 0'] },
  { name: 'negative rate', raw: with_((c) => (c.load.rate = -5)), path: 'load.rate', includes: ['got -5'] },
  { name: 'rate as text', raw: with_((c) => (c.load.rate = 'fast')), path: 'load.rate', includes: ['expected a number', '"fast"'] },
  { name: 'duration without unit', raw: with_((c) => (c.load.duration = '10')), path: 'load.duration', includes: ['with a unit', '"10"'] },
  { name: 'duration zero', raw: with_((c) => (c.load.duration = '0s')), path: 'load.duration', includes: ['> 0'] },
  {
    name: 'unknown top-level key',
    raw: with_((c) => (c.modez = [])),
    path: '(top level)',
    includes: ['unknown key "modez"', 'did you mean "modes"'],
  },
  { name: 'unknown load key', raw: with_((c) => (c.load.repetitons = 3)), path: 'load', includes: ['did you mean "repetitions"'] },
  { name: 'unknown mode key', raw: with_((c) => (c.modes[0].ulr = 'x')), path: 'modes[0]', includes: ['did you mean "url"'] },
  { name: 'bad platform', raw: with_((c) => (c.platform = 'kube')), path: 'platform', includes: ['"kind"', 'got "kube"'] },
  { name: 'bad url', raw: with_((c) => (c.modes[1].url = 'htp:/x')), path: 'modes[1].url', includes: ['http(s) URL', '"htp:/x"'] },
  { name: 'missing url on endpoints', raw: with_((c) => delete c.modes[1].url), path: 'modes[1].url', includes: ['is required'] },
  { name: 'duplicate mode', raw: with_((c) => (c.modes[1].name = 'baseline')), path: 'modes[1].name', includes: ['duplicate'] },
  {
    name: 'bad mode name',
    raw: with_((c) => (c.modes[0].name = 'Base Line')),
    path: 'modes[0].name',
    includes: ['lowercase', '"Base Line"'],
  },
  {
    name: 'baseline names no mode',
    raw: with_((c) => (c.baseline = 'nope')),
    path: 'baseline',
    includes: ['"nope"', '"baseline", "candidate"'],
  },
  { name: 'no modes', raw: with_((c) => (c.modes = [])), path: 'modes', includes: ['at least one mode'] },
  {
    name: 'repetitions fractional',
    raw: with_((c) => (c.load.repetitions = 2.5)),
    path: 'load.repetitions',
    includes: ['whole number', '2.5'],
  },
  {
    name: 'closed model without vus',
    raw: with_((c) => (c.load = { model: 'closed', duration: '1m' })),
    path: 'load.vus',
    includes: ['closed model'],
  },
  { name: 'open model without rate', raw: with_((c) => delete c.load.rate), path: 'load.rate', includes: ['open model'] },
  { name: 'load is a number', raw: with_((c) => (c.load = 5)), path: 'load', includes: ['got 5'] },
  { name: 'grpc without address', raw: with_((c) => (c.load.protocol = 'grpc')), path: 'modes[0].grpc', includes: ['host:port'] },
  {
    name: 'user script on kind',
    raw: { platform: 'kind', modes: [{ name: 'baseline' }], load: { script: './t.js' } },
    path: 'load.script',
    includes: ['not supported on platform "kind"'],
  },
  {
    name: 'gate scoped to an unknown mode',
    raw: with_((c) => (c.gates = { thresholds: ['mode=candidat: p(99) < 5ms'] })),
    path: 'gates.thresholds[0]',
    includes: ['names mode "candidat"', 'modes: baseline, candidate'],
  },
  {
    name: 'bad grpc address',
    raw: with_((c) => (c.modes[0].grpc = 'localhost')),
    path: 'modes[0].grpc',
    includes: ['host:port', '"localhost"'],
  },
  // No open-source stable Linkerd binaries exist after 2.14.10: point at edge releases.
  {
    name: 'Linkerd stable after 2.14',
    raw: with_((c) => (c.kubernetes = { linkerd: { version: 'stable-2.16.1' } })),
    path: 'kubernetes.linkerd.version',
    includes: ['stable-2.16.1', 'edge release', 'edge-26.9.1'],
  },
  {
    name: 'Linkerd stable 2.15',
    raw: with_((c) => (c.kubernetes = { linkerd: { version: 'stable-2.15.0' } })),
    path: 'kubernetes.linkerd.version',
    includes: ['only edge releases'],
  },
  {
    name: 'Linkerd version not a release',
    raw: with_((c) => (c.kubernetes = { linkerd: { version: '2.18' } })),
    path: 'kubernetes.linkerd.version',
    includes: ['edge-26.9.1', '"2.18"'],
  },
];

test('Linkerd edge releases and open-source stables up to 2.14 validate', () => {
  for (const version of ['edge-26.9.1', 'stable-2.14.10']) {
    assert.equal(validateConfig(with_((c) => (c.kubernetes = { linkerd: { version } }))).kubernetes.linkerd.version, version);
  }
});

for (const bad of BAD) {
  test(`bad config: ${bad.name}`, () => {
    assert.throws(
      () => validateConfig(bad.raw, 'mesh-perf.yaml'),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError, `expected ConfigError, got ${String(error)}`);
        assert.equal(error.exitCode, 2);
        const problem = error.problems.find((p) => (p.path || '(top level)') === bad.path);
        assert.ok(problem, `no problem at ${bad.path}; got ${error.message}`);
        for (const part of bad.includes)
          assert.ok(error.message.includes(part), `message lacks ${JSON.stringify(part)}:\n${error.message}`);
        assert.ok(error.message.startsWith('mesh-perf.yaml has'), error.message);
        return true;
      },
    );
  });
}

test('every problem is reported at once, not only the first', () => {
  const raw = with_((c) => {
    c.load.rate = -1;
    c.load.duration = '10';
    c.platformm = 'x';
  });
  assert.throws(
    () => validateConfig(raw),
    (error: ConfigError) => error.problems.length === 3,
  );
});

test('malformed YAML names the line', () => {
  assert.throws(
    () => parseYaml('modes:\n  - name: a\n   url: [x\n', 'mesh-perf.yaml'),
    (error: unknown) => error instanceof UsageError && /mesh-perf.yaml is not valid YAML at line \d+/.test(error.message),
  );
  assert.throws(() => parseYaml('- a\n- b\n', 'f.yaml'), /expected a YAML mapping/);
  assert.throws(() => parseYaml('a: 1\na: 2\n', 'f.yaml'), /not valid YAML/);
});

test('a list of load profiles gets distinct names', () => {
  const config = validateConfig(with_((c) => (c.load = [{ rate: 20 }, { rate: 50 }])));
  assert.deepEqual(
    config.profiles.map((p) => p.name),
    ['20rps', '50rps'],
  );
  assert.throws(() => validateConfig(with_((c) => (c.load = [{ rate: 20 }, { rate: 20 }]))), /duplicate load profile name "20rps"/);
});

test('on a cluster a mode needs a mesh, or a name that is one: said with the config (exit 2), not by the platform mid-run', () => {
  const cluster = (modes: unknown[]) => ({ platform: 'kind', modes, load: { rate: 10 } });
  assert.throws(
    () => validateConfig(cluster([{ name: 'baseline' }, { name: 'app', arms: { head: { echoImage: 'example.test/app:2' } } }])),
    (error: ConfigError) =>
      error.problems.length === 1 &&
      error.problems[0]!.path === 'modes[1].mesh' &&
      /required on platform "kind" for mode "app".*expected one of baseline, istio-sidecar/.test(error.problems[0]!.message),
  );
  // Named after its mesh, or given one: fine; off a cluster a mode needs none.
  validateConfig(cluster([{ name: 'linkerd' }, { name: 'app', mesh: 'existing' }]));
  validateConfig({ platform: 'local', modes: [{ name: 'app' }], load: { rate: 10 } });
});
