// A mode's settings fingerprint (run.provenance.settings): the same for the same setup however
// the config was written, different when anything the mode measures under differs, including
// the content of its server manifests and the run-wide settings it inherits.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { modeSettings, referencedFiles, settingsFingerprints } from '../../src/config/fingerprint.ts';
import { publicConfig } from '../../src/config/public.ts';
import { validateConfig } from '../../src/config/validate.ts';

const stored = (raw: Record<string, unknown>) => publicConfig(validateConfig({ load: { rate: 100 }, ...raw }));

test('local: key order does not matter, every setting of the mode does, other modes do not', () => {
  const a = settingsFingerprints(
    stored({ platform: 'local', modes: [{ name: 'svc', local: { delay: '2ms', hops: 1 } }, { name: 'other' }] }),
  );
  const b = settingsFingerprints(
    stored({
      platform: 'local',
      modes: [
        { name: 'svc', local: { hops: 1, delay: '2ms' } },
        { name: 'other', local: { hops: 2 } },
      ],
    }),
  );
  assert.match(a.svc!, /^[0-9a-f]{16}$/);
  assert.equal(a.svc, b.svc);
  assert.notEqual(a.other, b.other);
  const c = settingsFingerprints(
    stored({ platform: 'local', modes: [{ name: 'svc', local: { delay: '2ms', hops: 1 }, env: { X: '1' } }] }),
  );
  assert.notEqual(a.svc, c.svc);
});

test('a cluster: the inherited echo image, the Istio version of an Istio mode and the manifests content are in it', () => {
  const base = { platform: 'kind', modes: [{ name: 'baseline' }, { name: 'istio-sidecar' }] };
  const one = settingsFingerprints(stored(base));
  const image = settingsFingerprints(stored({ ...base, kubernetes: { images: { echo: 'fortio/fortio:1.70.0' } } }));
  assert.notEqual(one.baseline, image.baseline);
  const istio = settingsFingerprints(stored({ ...base, kubernetes: { istio: { version: '1.29.2' } } }));
  assert.equal(one.baseline, istio.baseline, 'the baseline runs no Istio');
  assert.notEqual(one['istio-sidecar'], istio['istio-sidecar']);
  const withServer = stored({ ...base, kubernetes: { manifests: { server: 'server.yaml' } } });
  assert.deepEqual(referencedFiles(withServer), ['server.yaml']);
  const v1 = settingsFingerprints(withServer, { 'server.yaml': 'a'.repeat(64) });
  const v2 = settingsFingerprints(withServer, { 'server.yaml': 'b'.repeat(64) });
  assert.notEqual(v1.baseline, v2.baseline, 'the same path with other content is another setup');
  assert.deepEqual(modeSettings(withServer, 'baseline', { 'server.yaml': 'a'.repeat(64) })?.serverManifests, {
    path: 'server.yaml',
    sha256: 'a'.repeat(64),
  });
  assert.equal(modeSettings(withServer, 'nope'), undefined);
});
