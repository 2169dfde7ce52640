// Istio's sidecar injector, for a local control plane whose istiod pods are emulated (kwok) and so
// never answer the injection webhooks istioctl registers (failurePolicy Fail: no pod of an enrolled
// namespace could be created). It serves AdmissionReviews over HTTPS on 127.0.0.1 with the
// cluster's kubelet certificate (signed by the cluster CA, SAN 127.0.0.1) and points every webhook
// of every istio-sidecar-injector* configuration at itself, one URL path per configuration, so a
// test reads which revision's webhook the real API server called for which namespace's pods. It
// allows every pod unchanged (kwok runs no containers, so there is no proxy to inject), or with
// `inject`, adds what the injection puts in the pod spec for the run to find: the istio-proxy
// native sidecar (an init container with restartPolicy Always) with its http-envoy-prom port.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { rawRequest, type ClusterAccess } from '../../../src/platform/kubernetes/access.ts';

const CONFIGS = '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations';

export interface InjectorCall {
  /** The MutatingWebhookConfiguration whose webhook the API server called. */
  configuration: string;
  namespace: string;
  kind: string;
}

export interface InjectorStandIn {
  calls: InjectorCall[];
  stop(): Promise<void>;
}

type Json = any;

/** Istio's injected sidecar as it appears in the pod spec (native sidecars), reduced to what the run reads. */
const INJECTED = {
  name: 'istio-proxy',
  image: 'docker.io/istio/proxyv2:standin',
  restartPolicy: 'Always',
  ports: [{ containerPort: 15090, name: 'http-envoy-prom', protocol: 'TCP' }],
};

export async function injectorStandIn(
  access: ClusterAccess,
  clusterDir: string,
  options: { inject?: boolean } = {},
): Promise<InjectorStandIn> {
  const calls: InjectorCall[] = [];
  const server: Server = createServer(
    { cert: readFileSync(join(clusterDir, 'kubelet.crt')), key: readFileSync(join(clusterDir, 'kubelet.key')) },
    (request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const review = JSON.parse(body) as Json;
        calls.push({
          configuration: (request.url ?? '/').slice(1).split('?')[0]!,
          namespace: review.request.namespace,
          kind: review.request.kind.kind,
        });
        response.setHeader('Content-Type', 'application/json');
        const pod = review.request.kind.kind === 'Pod' ? review.request.object : undefined;
        const patch =
          options.inject && pod
            ? [
                ...(pod.spec.initContainers ? [] : [{ op: 'add', path: '/spec/initContainers', value: [] }]),
                { op: 'add', path: '/spec/initContainers/-', value: INJECTED },
              ]
            : undefined;
        response.end(
          JSON.stringify({
            apiVersion: 'admission.k8s.io/v1',
            kind: 'AdmissionReview',
            response: {
              uid: review.request.uid,
              allowed: true,
              ...(patch ? { patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') } : {}),
            },
          }),
        );
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const caBundle = readFileSync(join(clusterDir, 'ca.crt')).toString('base64');
  let stopped = false;
  // Re-points each configuration as soon as istioctl creates it (and again if anything rewrites it).
  const loop = (async () => {
    while (!stopped) {
      const list = await rawRequest(access, CONFIGS);
      for (const config of (JSON.parse(list.body) as Json).items ?? []) {
        const name: string = config.metadata.name;
        if (!name.startsWith('istio-sidecar-injector') && !name.startsWith('istio-revision-tag')) continue;
        const url = `https://127.0.0.1:${port}/${name}`;
        if (config.webhooks.every((w: Json) => w.clientConfig.url === url)) continue;
        for (const webhook of config.webhooks) webhook.clientConfig = { url, caBundle };
        const updated = await rawRequest(access, `${CONFIGS}/${name}`, {
          method: 'PUT',
          contentType: 'application/json',
          body: JSON.stringify(config),
        });
        // 409: someone changed it meanwhile; the next pass re-reads it. 404: deleted (down).
        assert.ok([200, 404, 409].includes(updated.status), `${name}: ${updated.status} ${updated.body.slice(0, 200)}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  let failure: unknown;
  loop.catch((error) => (failure = error));
  return {
    calls,
    async stop() {
      stopped = true;
      await loop.catch(() => undefined);
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (failure) throw failure;
    },
  };
}
