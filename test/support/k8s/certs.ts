// Throwaway PKI for the local control plane, made with the openssl CLI: a CA, the API server's
// serving certificate, an admin client certificate (group system:masters), the fake kubelets'
// serving certificate and the service-account signing key. EC P-256 keys: fast to generate.
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface Pki {
  caCert: string;
  caKey: string;
  serverCert: string;
  serverKey: string;
  adminCert: string;
  adminKey: string;
  kubeletCert: string;
  kubeletKey: string;
  saKey: string;
  saPub: string;
}

async function openssl(dir: string, args: string[]): Promise<void> {
  await run('openssl', args, { cwd: dir, timeout: 30_000 });
}

async function ecKey(dir: string, name: string): Promise<string> {
  await openssl(dir, ['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', `${name}.key`]);
  return join(dir, `${name}.key`);
}

async function signed(dir: string, name: string, subject: string, extensions: string): Promise<{ cert: string; key: string }> {
  const key = await ecKey(dir, name);
  await openssl(dir, ['req', '-new', '-key', `${name}.key`, '-subj', subject, '-out', `${name}.csr`]);
  await writeFile(join(dir, `${name}.ext`), extensions);
  await openssl(dir, [
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    `${name}.ext`,
    '-out',
    `${name}.crt`,
  ]);
  return { cert: join(dir, `${name}.crt`), key };
}

export interface PkiOptions {
  /** The API server's serving certificate's subjectAltName (default: 127.0.0.1 and the kubernetes Service names). */
  serverSans?: string;
  /** The kubelets' serving certificate's subjectAltName. */
  kubeletSans?: string;
}

export async function makePki(dir: string, options: PkiOptions = {}): Promise<Pki> {
  const caKey = await ecKey(dir, 'ca');
  await openssl(dir, ['req', '-x509', '-new', '-key', 'ca.key', '-subj', '/CN=mesh-perf-test-ca', '-days', '2', '-out', 'ca.crt']);
  const serverSans =
    options.serverSans ??
    'subjectAltName=IP:127.0.0.1,IP:10.96.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc';
  const server = await signed(dir, 'apiserver', '/CN=kube-apiserver', `${serverSans}\nextendedKeyUsage=serverAuth\n`);
  const admin = await signed(dir, 'admin', '/O=system:masters/CN=mesh-perf-test-admin', 'extendedKeyUsage=clientAuth\n');
  const kubelet = await signed(
    dir,
    'kubelet',
    '/CN=kwok-kubelet',
    `${options.kubeletSans ?? 'subjectAltName=IP:127.0.0.1,DNS:localhost'}\nextendedKeyUsage=serverAuth\n`,
  );
  const saKey = await ecKey(dir, 'sa');
  await openssl(dir, ['ec', '-in', 'sa.key', '-pubout', '-out', 'sa.pub']);
  return {
    caCert: join(dir, 'ca.crt'),
    caKey,
    serverCert: server.cert,
    serverKey: server.key,
    adminCert: admin.cert,
    adminKey: admin.key,
    kubeletCert: kubelet.cert,
    kubeletKey: kubelet.key,
    saKey,
    saPub: join(dir, 'sa.pub'),
  };
}

export async function kubeconfigYaml(pki: Pki, server: string, name = 'mesh-perf-test'): Promise<string> {
  const b64 = async (path: string) => (await readFile(path)).toString('base64');
  return `apiVersion: v1
kind: Config
clusters:
- name: ${name}
  cluster:
    server: ${server}
    certificate-authority-data: ${await b64(pki.caCert)}
users:
- name: ${name}-admin
  user:
    client-certificate-data: ${await b64(pki.adminCert)}
    client-key-data: ${await b64(pki.adminKey)}
contexts:
- name: ${name}
  context:
    cluster: ${name}
    user: ${name}-admin
current-context: ${name}
`;
}
