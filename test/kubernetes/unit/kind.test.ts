// kind's generated config, its command lines and the node image's reference and pull failures, pinned
// down exactly (the kind tier, test/kind/, runs them for real against a contained Docker).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import {
  INOTIFY_SYSCTLS,
  kindConfig,
  kindCreateArgs,
  kindDeleteArgs,
  kindExportLogsArgs,
  kindGetClustersArgs,
  kindKubeconfigArgs,
} from '../../../src/platform/kubernetes/kind/commands.ts';
import { validateConfig } from '../../../src/config/validate.ts';
import { TOOL_PINS } from '../../../src/tools/pins.ts';
import { inotifyAdvice, inotifyRaiseArgs, lowInotifySettings } from '../../../src/platform/kubernetes/kind/platform.ts';
import { parseImageReference } from '../../../src/platform/kubernetes/kind/image-reference.ts';
import { classifyPullFailure } from '../../../src/platform/kubernetes/kind/node-image.ts';
import { bearerChallenge } from '../../../src/platform/kubernetes/kind/tag-digest.ts';

const image = 'kindest/node:v1.35.0@sha256:452d707d4862f52530247495d180205e029056831160e22870e37e3f6c1ac31f';

test('cluster config: one control plane and N workers, every node on the pinned image', () => {
  for (const workers of [2, 3]) {
    const config = parse(kindConfig({ workers, nodeImage: image })) as {
      kind: string;
      apiVersion: string;
      nodes: { role: string; image: string }[];
    };
    assert.equal(config.kind, 'Cluster');
    assert.equal(config.apiVersion, 'kind.x-k8s.io/v1alpha4');
    assert.deepEqual(
      config.nodes.map((n) => n.role),
      ['control-plane', ...Array(workers).fill('worker')],
    );
    assert.ok(config.nodes.every((n) => n.image === image));
  }
});

test('the default node image is pinned by digest and the default cluster has two workers', () => {
  const config = validateConfig({ platform: 'kind', modes: [{ name: 'baseline' }], load: { rate: 10 } });
  assert.match(config.kubernetes.kind.nodeImage, /^kindest\/node:v\d+\.\d+\.\d+@sha256:[0-9a-f]{64}$/);
  assert.equal(config.kubernetes.kind.workers, 2);
  assert.throws(
    () => validateConfig({ platform: 'kind', modes: [{ name: 'baseline' }], load: { rate: 10 }, kubernetes: { kind: { workers: 1 } } }),
    /workers/,
  );
  assert.throws(
    () =>
      validateConfig({
        platform: 'kind',
        modes: [{ name: 'baseline' }],
        load: { rate: 10 },
        kubernetes: { kind: { nodeImage: 'kindest/node:v1.35.0' } },
      }),
    /pinned by digest/,
  );
});

test('the default echo image is a release tag fortio publishes for every platform, not a digest only seen on arm64', () => {
  const kind = (images?: Record<string, string>) =>
    validateConfig({ platform: 'kind', modes: [{ name: 'baseline' }], load: { rate: 10 }, ...(images ? { kubernetes: { images } } : {}) });
  assert.equal(kind().kubernetes.images.echo, 'fortio/fortio:1.69.4');
  assert.ok(!kind().kubernetes.images.echo.includes('65633fc5e70f9745be8c311637fb8e484da31a366463028a11083ac0a098e3d3'));
  // Digests stay accepted; a version tag is accepted for workloads (the digest that ran is recorded).
  assert.equal(
    kind({ echo: `fortio/fortio:1.69.4@sha256:${'a'.repeat(64)}` }).kubernetes.images.echo,
    `fortio/fortio:1.69.4@sha256:${'a'.repeat(64)}`,
  );
  assert.equal(kind({ client: 'registry.local:5000/k6:v1.4.2' }).kubernetes.images.client, 'registry.local:5000/k6:v1.4.2');
  for (const bad of ['fortio/fortio:latest', 'fortio/fortio']) {
    assert.throws(
      () => kind({ echo: bad }),
      (error: Error) =>
        error.message.includes('kubernetes.images.echo') &&
        error.message.includes(JSON.stringify(bad)) &&
        error.message.includes('version tag'),
    );
  }
});

test('kind command lines', () => {
  assert.deepEqual(
    kindCreateArgs({
      name: 'mesh-perf',
      nodeImage: image,
      workers: 2,
      configPath: '/w/kind.yaml',
      kubeconfigPath: '/w/kubeconfig',
      waitSeconds: 180,
    }),
    [
      'create',
      'cluster',
      '--name',
      'mesh-perf',
      '--config',
      '/w/kind.yaml',
      '--image',
      image,
      '--kubeconfig',
      '/w/kubeconfig',
      '--wait',
      '180s',
    ],
  );
  assert.deepEqual(kindDeleteArgs('mesh-perf'), ['delete', 'cluster', '--name', 'mesh-perf']);
  assert.deepEqual(kindDeleteArgs('mesh-perf', '/w/kc'), ['delete', 'cluster', '--name', 'mesh-perf', '--kubeconfig', '/w/kc']);
  assert.deepEqual(kindGetClustersArgs(), ['get', 'clusters']);
  assert.deepEqual(kindKubeconfigArgs('x'), ['get', 'kubeconfig', '--name', 'x']);
  assert.deepEqual(kindExportLogsArgs('x', '/logs'), ['export', 'logs', '/logs', '--name', 'x']);
  assert.deepEqual(INOTIFY_SYSCTLS, ['fs.inotify.max_user_watches=524288', 'fs.inotify.max_user_instances=512']);
});

test('kind, istioctl and linkerd downloads are pinned with SHA-256 values', () => {
  for (const name of ['kind', 'istioctl', 'linkerd', 'gateway-api']) {
    const pin = TOOL_PINS[name];
    assert.ok(pin, name);
    for (const asset of Object.values(pin.assets)) {
      assert.match(asset.sha256, /^[0-9a-f]{64}$/, name);
      assert.match(asset.url, /^https:\/\//, name);
      assert.ok(asset.url.includes(pin.version), `${name}: ${asset.url} names ${pin.version}`);
    }
  }
  assert.equal(TOOL_PINS.istioctl!.assets['linux-x64']!.member, 'istio-1.30.3/bin/istioctl');
});

test('every platform binary the product downloads is pinned for linux x64 and arm64 runners', () => {
  for (const name of ['kind', 'istioctl', 'linkerd', 'k6']) {
    assert.deepEqual(Object.keys(TOOL_PINS[name]!.assets).sort(), ['linux-arm64', 'linux-x64'], name);
  }
  assert.equal(
    TOOL_PINS.kind!.assets['linux-arm64']!.url,
    'https://github.com/kubernetes-sigs/kind/releases/download/v0.31.0/kind-linux-arm64',
  );
});

test('inotify advice names only the limits that are too low, with the command to raise them', async () => {
  const limits = (watches: string, instances: string) => async (path: string) => (path.endsWith('max_user_watches') ? watches : instances);
  assert.equal(
    await inotifyAdvice(limits('8192', '128')),
    'inotify limits are low for a multi-node kind cluster with Istio CNI/ztunnel; raise them first: sudo sysctl -w fs.inotify.max_user_watches=524288 fs.inotify.max_user_instances=512',
  );
  assert.match((await inotifyAdvice(limits('1048576', '128')))!, /sysctl -w fs\.inotify\.max_user_instances=512$/);
  assert.equal(await inotifyAdvice(limits('524288', '8192')), undefined);
  assert.equal(
    await inotifyAdvice(async () => {
      throw new Error('no /proc');
    }),
    undefined,
  );
});

test("inotify limits are only raised: the runner images' 655360/1280 are left alone, low ones raised without a password prompt", async () => {
  const limits = (watches: string, instances: string) => async (path: string) => (path.endsWith('max_user_watches') ? watches : instances);
  assert.deepEqual(await lowInotifySettings(limits('655360', '1280')), []);
  assert.deepEqual(await lowInotifySettings(limits('8192', '1280')), ['fs.inotify.max_user_watches=524288']);
  assert.deepEqual(inotifyRaiseArgs(await lowInotifySettings(limits('8192', '128'))), [
    '-n',
    'sysctl',
    '-w',
    'fs.inotify.max_user_watches=524288',
    'fs.inotify.max_user_instances=512',
  ]);
});

test("the cluster config carries the pod and Service ranges only when set (kind's own defaults otherwise)", () => {
  assert.equal((parse(kindConfig({ workers: 2, nodeImage: image })) as Record<string, unknown>).networking, undefined);
  const config = parse(kindConfig({ workers: 2, nodeImage: image, podSubnet: '198.18.128.0/17', serviceSubnet: '198.19.0.0/16' })) as {
    networking: Record<string, string>;
  };
  assert.deepEqual(config.networking, { podSubnet: '198.18.128.0/17', serviceSubnet: '198.19.0.0/16' });
  const kind = (extra: Record<string, unknown>) =>
    validateConfig({ platform: 'kind', modes: [{ name: 'baseline' }], load: { rate: 10 }, kubernetes: { kind: extra } }).kubernetes.kind;
  assert.equal(kind({ podSubnet: 'fd00:10:244::/56' }).podSubnet, 'fd00:10:244::/56');
  for (const bad of ['10.244.0.0', '10.244.0.0/33', '300.1.1.1/8', '10.244.0.0/16/1', 'ten/8']) {
    assert.throws(
      () => kind({ serviceSubnet: bad }),
      (error: Error) =>
        error.message.includes('kubernetes.kind.serviceSubnet') &&
        error.message.includes(JSON.stringify(bad)) &&
        /IP prefix/.test(error.message),
      bad,
    );
  }
});

test('image references split as Docker reads them: Docker Hub by default, a registry host with a port, tag and digest', () => {
  const digest = `sha256:${'a'.repeat(64)}`;
  assert.deepEqual(parseImageReference(`kindest/node:v1.35.0@${digest}`), {
    registry: 'docker.io',
    apiHost: 'registry-1.docker.io',
    repository: 'kindest/node',
    tag: 'v1.35.0',
    digest,
  });
  assert.deepEqual(parseImageReference(`198.18.1.1:5000/kindest/node:v1.35.0@${digest}`), {
    registry: '198.18.1.1:5000',
    apiHost: '198.18.1.1:5000',
    repository: 'kindest/node',
    tag: 'v1.35.0',
    digest,
  });
  assert.deepEqual(parseImageReference(`nginx@${digest}`), {
    registry: 'docker.io',
    apiHost: 'registry-1.docker.io',
    repository: 'library/nginx',
    digest,
  });
  assert.deepEqual(parseImageReference('localhost/a/b:1'), { registry: 'localhost', apiHost: 'localhost', repository: 'a/b', tag: '1' });
});

test('a failed pull is told apart by what Docker said: no daemon, an unreachable registry, a missing manifest', () => {
  const cases: [string, string][] = [
    ['Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?', 'daemon'],
    ['Error response from daemon: Get "https://198.18.1.9:5000/v2/": dial tcp 198.18.1.9:5000: connect: connection refused', 'unreachable'],
    ['Error response from daemon: Get "https://r.example/v2/": dial tcp: lookup r.example: no such host', 'unreachable'],
    ['Error response from daemon: Get "https://10.0.0.1:5000/v2/": http: server gave HTTP response to HTTPS client', 'unreachable'],
    ['Error response from daemon: manifest for r/kindest/node@sha256:ab not found: manifest unknown: manifest unknown', 'not-found'],
    ['Error response from daemon: pull access denied for x, repository does not exist or may require docker login', 'not-found'],
    ['something else', 'other'],
  ];
  for (const [said, want] of cases) assert.equal(classifyPullFailure(said), want, said);
});

test("a registry's bearer challenge gives its token realm and parameters", () => {
  assert.deepEqual(
    bearerChallenge('Bearer realm="https://auth.docker.io/token",service="registry.docker.io",scope="repository:kindest/node:pull"'),
    {
      realm: 'https://auth.docker.io/token',
      params: { service: 'registry.docker.io', scope: 'repository:kindest/node:pull' },
    },
  );
  assert.equal(bearerChallenge('Basic realm="x"'), undefined);
  assert.equal(bearerChallenge(null), undefined);
});

test('the kind tier builds the kind and the node Kubernetes version the product pins (scripts/kind/versions.sh)', async () => {
  // @ts-expect-error a plain JS module without types
  const { kindVersions } = (await import('../../../scripts/kind/components.mjs')) as { kindVersions: () => Record<string, string> };
  const versions = kindVersions();
  assert.equal(versions.KIND_VERSION, TOOL_PINS.kind!.version);
  const defaultImage = validateConfig({ platform: 'kind', modes: [{ name: 'baseline' }], load: { rate: 10 } }).kubernetes.kind.nodeImage;
  assert.equal(parseImageReference(defaultImage).tag, `v${versions.KIND_KUBERNETES_VERSION}`);
});

test("after kind create the run waits for every node: one not Ready or still tainted not-ready is named, the control plane's own taint is not", async () => {
  const { nodesNotReady } = await import('../../../src/platform/kubernetes/kind/nodes-ready.ts');
  const node = (name: string, ready: boolean, taints: { key: string; effect: string }[] = []) => ({
    metadata: { name },
    spec: { taints },
    status: { conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  });
  const controlPlane = node('mesh-perf-control-plane', true, [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }]);
  assert.deepEqual(nodesNotReady([controlPlane, node('mesh-perf-worker', true), node('mesh-perf-worker2', true)]), []);
  assert.deepEqual(
    nodesNotReady([
      controlPlane,
      node('mesh-perf-worker', false, [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }]),
      node('mesh-perf-worker2', true, [{ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }]),
    ]),
    ['mesh-perf-worker (not Ready, node.kubernetes.io/not-ready)', 'mesh-perf-worker2 (node.kubernetes.io/not-ready)'],
  );
});
