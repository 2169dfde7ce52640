// The ingress gateway's objects, its self-signed certificate, endpoint counting and the gateway's
// resource group: pure pieces of kubernetes.ingress and load[].replicas.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import {
  gatewayObjects,
  gatewayProgrammed,
  gatewayUrl,
  routeObject,
  GATEWAY_DEPLOYMENT,
} from '../../../src/platform/kubernetes/ingress.ts';
import { selfSignedCertificate } from '../../../src/platform/kubernetes/self-signed.ts';
import { readyEndpoints } from '../../../src/platform/kubernetes/scale.ts';
import { groupOf } from '../../../src/platform/kubernetes/resources/groups.ts';
import { runCliInProcess } from '../../support/cli.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

test('the self-signed certificate parses, is self-signed, names its hosts and matches its key', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  const { certPem, keyPem } = selfSignedCertificate(['gw.ns.svc.cluster.local', 'gw.ns.svc'], now, 30);
  const cert = new X509Certificate(certPem);
  assert.equal(cert.subject, 'CN=gw.ns.svc.cluster.local');
  assert.equal(cert.subjectAltName, 'DNS:gw.ns.svc.cluster.local, DNS:gw.ns.svc');
  assert.ok(cert.verify(cert.publicKey), 'signed by its own key');
  assert.ok(cert.checkPrivateKey(createPrivateKey(keyPem)));
  assert.equal(new Date(cert.validTo).getTime(), now.getTime() + 30 * 86_400_000);
  assert.notEqual(selfSignedCertificate(['a']).certPem, selfSignedCertificate(['a']).certPem, 'a fresh key and serial each time');
});

test('serials in DER shortest form: random bytes starting 00 or 80+ still give a certificate OpenSSL reads', () => {
  // 00 05 … was written as is (one certificate in 256): OpenSSL refused it, "illegal padding".
  for (const first of [
    [0x00, 0x05],
    [0x00, 0x85],
    [0x80, 0x00],
    [0xff, 0xff],
  ]) {
    const random = Buffer.concat([Buffer.from(first), Buffer.alloc(14, 0x11)]);
    const cert = new X509Certificate(selfSignedCertificate(['a'], new Date(), 30, random).certPem);
    assert.match(cert.serialNumber, /^[1-7][0-9A-F]{31}$|^0[1-7][0-9A-F]{30}$/, `serial from ${random.toString('hex')}`);
  }
});

test('HTTP gateway: class istio, pinned replicas through its options ConfigMap, routes only from this run', () => {
  const objects = gatewayObjects({ replicas: 10, tls: false }, 'mp-ingress', 'run-1') as any[];
  assert.deepEqual(
    objects.map((o) => o.kind),
    ['ConfigMap', 'Gateway'],
  );
  const [options, gateway] = objects;
  assert.deepEqual(JSON.parse(options.data.deployment), { spec: { replicas: 10 } });
  assert.equal(gateway.spec.gatewayClassName, 'istio');
  assert.deepEqual(gateway.spec.infrastructure.parametersRef, { group: '', kind: 'ConfigMap', name: options.metadata.name });
  assert.equal(gateway.metadata.annotations['networking.istio.io/service-type'], 'ClusterIP');
  assert.deepEqual(
    gateway.spec.listeners.map((l: any) => [l.protocol, l.port]),
    [['HTTP', 80]],
  );
  assert.deepEqual(gateway.spec.listeners[0].allowedRoutes.namespaces.selector.matchLabels, { 'mesh-perf.dev/run-id': 'run-1' });
  assert.equal(gatewayUrl('mp-ingress', false, 'sidecar'), `http://${GATEWAY_DEPLOYMENT}.mp-ingress.svc.cluster.local/sidecar/`);
});

test('HTTPS gateway: a kubernetes.io/tls Secret with a certificate for the gateway Service', () => {
  const objects = gatewayObjects({ replicas: 1, tls: true }, 'mp-ingress', 'run-1') as any[];
  const gateway = objects.find((o) => o.kind === 'Gateway');
  const secret = objects.find((o) => o.kind === 'Secret');
  assert.equal(gateway.spec.listeners[0].protocol, 'HTTPS');
  assert.equal(gateway.spec.listeners[0].tls.certificateRefs[0].name, secret.metadata.name);
  assert.equal(secret.type, 'kubernetes.io/tls');
  const cert = new X509Certificate(Buffer.from(secret.data['tls.crt'], 'base64'));
  assert.match(cert.subjectAltName!, new RegExp(`DNS:${GATEWAY_DEPLOYMENT}\\.mp-ingress\\.svc\\.cluster\\.local`));
  assert.ok(cert.checkPrivateKey(createPrivateKey(Buffer.from(secret.data['tls.key'], 'base64'))));
  assert.ok(gatewayUrl('mp-ingress', true, 'x').startsWith('https://'));
});

test("each mode's route sends /<mode>/… to its echo Service with the prefix removed", () => {
  const route = routeObject('no-sidecar', 'mp-ingress') as any;
  assert.equal(route.kind, 'HTTPRoute');
  assert.deepEqual(route.spec.parentRefs, [{ name: 'mesh-perf-gateway', namespace: 'mp-ingress' }]);
  const rule = route.spec.rules[0];
  assert.deepEqual(rule.matches, [{ path: { type: 'PathPrefix', value: '/no-sidecar' } }]);
  assert.equal(rule.filters[0].urlRewrite.path.replacePrefixMatch, '/');
  assert.deepEqual(rule.backendRefs, [{ name: 'echo', port: 8080 }]);
});

test("modes under their own Istio revision: that revision's own Gateway, routes and URLs; one certificate for all", () => {
  const objects = gatewayObjects({ replicas: 2, tls: true }, 'mp-ingress', 'run-1', [undefined, 'mp-sidecar-head']) as any[];
  const gateways = objects.filter((o) => o.kind === 'Gateway');
  assert.deepEqual(
    gateways.map((g) => [g.metadata.name, g.metadata.labels?.['istio.io/rev']]),
    [
      ['mesh-perf-gateway', undefined],
      ['mesh-perf-gateway-mp-sidecar-head', 'mp-sidecar-head'],
    ],
    "the revision's istiod deploys its Gateway; the run's istiod the unlabelled one",
  );
  assert.ok(
    gateways.every((g) => g.spec.infrastructure.parametersRef.name === 'mesh-perf-gateway-options'),
    'one replica count for all',
  );
  assert.equal(objects.filter((o) => o.kind === 'Secret').length, 1);
  const cert = new X509Certificate(Buffer.from(objects.find((o) => o.kind === 'Secret').data['tls.crt'], 'base64'));
  assert.match(cert.subjectAltName!, /DNS:mesh-perf-gateway-istio\.mp-ingress\.svc\.cluster\.local/);
  assert.match(cert.subjectAltName!, /DNS:mesh-perf-gateway-mp-sidecar-head-istio\.mp-ingress\.svc\.cluster\.local/);
  assert.equal(
    gatewayUrl('mp-ingress', true, 'sidecar-head', 'mp-sidecar-head'),
    'https://mesh-perf-gateway-mp-sidecar-head-istio.mp-ingress.svc.cluster.local/sidecar-head/',
  );
  assert.deepEqual((routeObject('sidecar-head', 'mp-ingress', 'mp-sidecar-head') as any).spec.parentRefs, [
    { name: 'mesh-perf-gateway-mp-sidecar-head', namespace: 'mp-ingress' },
  ]);
});

test('a Gateway is ready when Programmed is True', () => {
  assert.equal(gatewayProgrammed({}), false);
  assert.equal(
    gatewayProgrammed({
      status: {
        conditions: [
          { type: 'Accepted', status: 'True' },
          { type: 'Programmed', status: 'False' },
        ],
      },
    }),
    false,
  );
  assert.equal(gatewayProgrammed({ status: { conditions: [{ type: 'Programmed', status: 'True' }] } }), true);
});

test('endpoints count as taking traffic when ready and not terminating', () => {
  const e = (ready?: boolean, terminating?: boolean) => ({ conditions: { ready, terminating } });
  assert.deepEqual(readyEndpoints([{ endpoints: [e(true), e(true, false)] }, { endpoints: [e(false), e(true, true), e(undefined)] }, {}]), {
    ready: 3,
    other: 2,
  });
});

test("the gateway's pods are their own group; the client beside them stays the client", () => {
  const context = {
    modeNamespaces: new Set(['mp-sidecar']),
    meshNamespaces: new Set(['istio-system']),
    gatewayNamespaces: new Set(['mp-ingress']),
  };
  const labels = { 'gateway.networking.k8s.io/gateway-name': 'mesh-perf-gateway' };
  assert.equal(
    groupOf({ namespace: 'mp-ingress', pod: `${GATEWAY_DEPLOYMENT}-abc`, container: 'istio-proxy', podLabels: labels }, context),
    'gateway',
  );
  assert.equal(groupOf({ namespace: 'mp-ingress', pod: 'mesh-perf-client', container: 'k6' }, context), 'client');
  assert.equal(groupOf({ namespace: 'mp-sidecar', pod: 'echo-1', container: 'istio-proxy' }, context), 'sidecar');
});

test("modes under their own Istio revision: each arm's gateway group holds its own gateway's pods only (issue 38 item 5)", () => {
  const context = (gateway: string) => ({
    modeNamespaces: new Set(['mp-sidecar-base']),
    meshNamespaces: new Set(['istio-system']),
    gatewayNamespaces: new Set(['mp-ingress']),
    gateway,
  });
  const pod = (gateway: string) => ({
    namespace: 'mp-ingress',
    pod: `${gateway}-istio-abc`,
    container: 'istio-proxy',
    podLabels: { 'gateway.networking.k8s.io/gateway-name': gateway },
  });
  const base = 'mesh-perf-gateway-mp-sidecar-base';
  const head = 'mesh-perf-gateway-mp-sidecar-head';
  assert.equal(groupOf(pod(base), context(base)), 'gateway');
  assert.equal(groupOf(pod(head), context(base)), undefined, "the head arm's gateway is not the base arm's");
  assert.equal(groupOf(pod(head), context(head)), 'gateway');
  assert.equal(groupOf({ namespace: 'mp-ingress', pod: 'mesh-perf-client', container: 'k6' }, context(base)), 'client');
});

test('plan, with an ingress and an istio-waypoint mode: the gateway, then the waypoint, and the label that makes it so (issue 38 item 3)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mesh-perf-plan-'));
  try {
    writeFileSync(
      join(dir, 'mesh-perf.yaml'),
      'platform: kubeconfig\nmodes: [{ name: baseline }, { name: istio-waypoint }]\nload: { rate: 10, repetitions: 1 }\nkubernetes: { ingress: { replicas: 1 } }\n',
    );
    const text = await runCliInProcess(['plan', '--config', 'mesh-perf.yaml'], { cwd: dir });
    assert.equal(text.code, 0, text.stderr);
    const rows = text.stdout.split('\n').filter((l) => /^\s*\d+\s/.test(l));
    assert.ok(rows.some((r) => /istio-waypoint.*gw\+wp/.test(r)) && rows.some((r) => /baseline.*\bgw\b/.test(r)), text.stdout);
    assert.match(
      text.stdout.replace(/\s+/g, ' '),
      /via gw\+wp: the gateway, then the mode's waypoint \(its namespace is labelled istio\.io\/ingress-use-waypoint=true; without that label Istio's gateways skip the waypoint\)/,
    );
    const json = JSON.parse((await runCliInProcess(['plan', '--config', 'mesh-perf.yaml', '--json'], { cwd: dir })).stdout);
    assert.deepEqual(json.trials.map((t: { mode: string; via: string }) => `${t.mode} ${t.via}`).sort(), [
      'baseline gateway',
      'istio-waypoint gateway+waypoint',
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
