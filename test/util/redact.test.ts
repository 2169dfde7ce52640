// The one redaction: URL credentials, secret-named env and header values, registered secrets and
// well-known token shapes are replaced; everything else is left exactly as it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isSecretName, REDACTED, redactText, redactValue, registerEnvSecrets, registerSecret, urlSecrets } from '../../src/util/redact.ts';
import { publicConfig, registerConfigSecrets } from '../../src/config/public.ts';
import { validateConfig } from '../../src/config/validate.ts';

test('userinfo and credential query parameters are stripped from every URL in a text', () => {
  const cases: [string, string][] = [
    ['https://x-access-token:ghp_X@github.com/org/repo.git', 'https://***@github.com/org/repo.git'],
    ['clone http://user@127.0.0.1:9/r.git failed', 'clone http://***@127.0.0.1:9/r.git failed'],
    ['postgres://app:pw@db/x and ssh://git@host/r', 'postgres://***@db/x and ssh://***@host/r'],
    ['http://h/cb?access_token=abc&x=1', 'http://h/cb?access_token=***&x=1'],
    ['http://h/?sig=abc&api_key=k&page=2', 'http://h/?sig=***&api_key=***&page=2'],
    ['https://github.com/org/repo.git', 'https://github.com/org/repo.git'],
    ['p(95) < 250ms for mode=a,b', 'p(95) < 250ms for mode=a,b'],
  ];
  for (const [input, expected] of cases) assert.equal(redactText(input), expected, input);
});

test('secret names: tokens, passwords, keys, PATs, private and auth headers; not ordinary names', () => {
  for (const name of [
    'GH_PAT',
    'MY_PAT',
    'X-Private',
    'GITHUB_TOKEN',
    'DB_PASSWORD',
    'API_KEY',
    'Authorization',
    'Cookie',
    'X-Api-Secret',
    'sig',
  ])
    assert.ok(isSecretName(name), name);
  for (const name of ['PATH', 'HOME', 'PWD', 'OLDPWD', 'TARGET_URL', 'X-Request-Id', 'Content-Type', 'page'])
    assert.ok(!isSecretName(name), name);
});

test('registered secrets (and their URL and base64 forms) are replaced by value, short values are not', () => {
  registerSecret('value-registered-1');
  registerSecret('short');
  assert.equal(redactText('a value-registered-1 b'), 'a *** b');
  assert.equal(redactText(Buffer.from('value-registered-1').toString('base64')), '***');
  assert.equal(redactText('short'), 'short');
  registerEnvSecrets({ GH_PAT: 'env-pat-value-1', HOME: '/home/someone-long' });
  assert.equal(redactText('env-pat-value-1 /home/someone-long'), '*** /home/someone-long');
  assert.equal(redactText('token ghp_abcdefghijklmnopqrstuvwxyz0123'), 'token ***');
});

test('a deep value: env and headers by name, strings by value, numbers untouched', () => {
  const redacted = redactValue({
    modes: [{ name: 'a', env: { GH_PAT: 'x', MODE: 'fast' } }],
    profiles: [{ headers: { 'X-Private': 'y', Accept: 'text/plain' } }],
    history: { store: 'https://u:p@h/r.git' },
    n: 3,
  });
  assert.deepEqual(redacted, {
    modes: [{ name: 'a', env: { GH_PAT: REDACTED, MODE: 'fast' } }],
    profiles: [{ headers: { 'X-Private': REDACTED, Accept: 'text/plain' } }],
    history: { store: 'https://***@h/r.git' },
    n: 3,
  });
});

test('a config registers its secrets, so they are redacted anywhere, and its snapshot carries none', () => {
  const raw = {
    platform: 'endpoints',
    modes: [{ name: 'a', url: 'http://probe:mode-url-password@127.0.0.1:8080/', env: { UPSTREAM_TOKEN: 'upstream-token-1' } }],
    load: { rate: 10, headers: { Authorization: 'Bearer bearer-token-123' } },
    history: { store: 'https://x-access-token:store-token-12@github.com/o/r.git' },
  };
  registerConfigSecrets(raw);
  assert.deepEqual(urlSecrets(raw.history.store), ['x-access-token:store-token-12', 'store-token-12']);
  for (const secret of ['mode-url-password', 'upstream-token-1', 'bearer-token-123', 'store-token-12'])
    assert.equal(redactText(`k6 said: ${secret}`), 'k6 said: ***', secret);
  const snapshot = JSON.stringify(publicConfig(validateConfig(raw, 'test')));
  for (const secret of ['mode-url-password', 'upstream-token-1', 'bearer-token-123', 'store-token-12'])
    assert.ok(!snapshot.includes(secret), secret);
  assert.match(snapshot, /https:\/\/\*\*\*@github\.com\/o\/r\.git/);
});

test("a kubeconfig's credentials are registered when the cluster is loaded", async () => {
  const { loadAccess } = await import('../../src/platform/kubernetes/access.ts');
  const { mkdtemp, rm, writeFile } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = await mkdtemp(join(tmpdir(), 'mesh-perf-kubeconfig-'));
  try {
    const file = join(dir, 'kubeconfig');
    await writeFile(
      file,
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters: [{ name: c, cluster: { server: "https://admin:kube-server-pw@127.0.0.1:6443" } }]',
        'users: [{ name: u, user: { token: kube-bearer-token-1 } }]',
        'contexts: [{ name: x, context: { cluster: c, user: u } }]',
        'current-context: x',
        '',
      ].join('\n'),
    );
    loadAccess({ kubeconfig: file }, {});
    assert.equal(redactText('kubectl said: kube-bearer-token-1 / kube-server-pw'), 'kubectl said: *** / ***');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
