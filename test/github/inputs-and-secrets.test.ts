// Pure pieces of the action: which kubeconfig strings get masked, how the event is read, when a
// comment is posted, how inputs map onto config overrides.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { kubeconfigSecrets } from '../../src/github/kubeconfig-secrets.ts';
import { readGitHubEvent } from '../../src/github/event.ts';
import { shouldComment, normalizeLogin } from '../../src/github/sticky.ts';
import { actionInputNames, readActionInputs } from '../../src/github/inputs.ts';
import { OVERRIDES } from '../../src/config/overrides.ts';
import { UsageError } from '../../src/util/errors.ts';

test('kubeconfig credential leaves, their decoded forms and PEM lines are masked; public fields are not', () => {
  const pem = '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAsecretline1xyz\nQWERTYsecretline2abc\n-----END RSA PRIVATE KEY-----\n';
  const keyData = Buffer.from(pem).toString('base64');
  const text = `
apiVersion: v1
kind: Config
clusters:
- name: prod
  cluster:
    server: https://10.0.0.1:6443
contexts:
- name: prod
  context: { cluster: prod, user: admin }
current-context: prod
users:
- name: admin
  user:
    token: abc.def.ghi-token
    client-key-data: ${keyData}
    username: alice
    password: s3cr3t-pw
- name: eks
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      command: aws
      args: [eks, get-token, --cluster-name, prod, averyveryverylongopaqueargument123]
      env:
      - name: AWS_PROFILE
        value: deploy-profile-secret
- name: gcp
  user:
    auth-provider:
      name: oidc
      config:
        client-secret: oidc-client-secret
        id-token: eyJhbGciOi.idtoken
`;
  const secrets = kubeconfigSecrets(text);
  for (const expected of [
    'abc.def.ghi-token',
    keyData,
    pem,
    'MIIEowIBAAKCAQEAsecretline1xyz',
    'QWERTYsecretline2abc',
    'alice',
    's3cr3t-pw',
    'deploy-profile-secret',
    'oidc-client-secret',
    'eyJhbGciOi.idtoken',
    'averyveryverylongopaqueargument123',
  ]) {
    assert.ok(secrets.includes(expected), `masks ${expected.slice(0, 20)}`);
  }
  for (const notSecret of [
    'https://10.0.0.1:6443',
    'prod',
    'aws',
    'eks',
    'get-token',
    'AWS_PROFILE',
    'oidc',
    'client.authentication.k8s.io/v1beta1',
    '-----BEGIN RSA PRIVATE KEY-----',
  ]) {
    assert.ok(!secrets.includes(notSecret), `does not mask ${notSecret}`);
  }
  assert.ok(secrets.every((s) => s.length > 0));
});

test('a kubeconfig that is not YAML is rejected without quoting its content', () => {
  const secret = 'token: "unterminated-secret-value';
  assert.throws(
    () => kubeconfigSecrets(`users:\n- user:\n    ${secret}\n  - : : [`),
    (error: unknown) => {
      assert.ok(error instanceof UsageError);
      assert.ok(!error.message.includes('unterminated-secret-value'), error.message);
      assert.match(error.message, /input kubeconfig is not valid YAML/);
      return true;
    },
  );
  assert.throws(() => kubeconfigSecrets('- just\n- a list\n'), /expected a kubeconfig/);
});

test('events: fork detection, deleted forks, workflow_run, run URL', () => {
  const env = {
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_REPOSITORY: 'octo/mesh',
    GITHUB_RUN_ID: '42',
    GITHUB_SERVER_URL: 'https://github.test/',
  };
  const pr = (head: unknown) => ({
    pull_request: {
      number: 5,
      head: { sha: 'a'.repeat(40), ref: 'f', repo: head },
      base: { sha: 'b'.repeat(40), ref: 'main', repo: { full_name: 'octo/mesh' } },
    },
  });
  const cases: [string, unknown, boolean][] = [
    ['same repository', { full_name: 'octo/mesh' }, false],
    ['fork', { full_name: 'someone/mesh' }, true],
    ['deleted fork (head.repo null)', null, true],
  ];
  for (const [name, head, fork] of cases) {
    const event = readGitHubEvent(env, pr(head));
    assert.equal(event.pullRequest?.fromFork, fork, name);
    assert.equal(event.pullRequest?.baseRef, 'main');
  }
  const base = readGitHubEvent(env, {});
  assert.equal(base.runUrl, 'https://github.test/octo/mesh/actions/runs/42');
  assert.equal(base.pullRequest, undefined);
  const wr = readGitHubEvent(
    { ...env, GITHUB_EVENT_NAME: 'workflow_run' },
    {
      workflow_run: {
        id: 9,
        name: 'mesh-perf fork-safe benchmark',
        head_sha: 'c'.repeat(40),
        head_branch: 'patch-1',
        event: 'pull_request',
        conclusion: 'success',
        html_url: 'https://github.test/octo/mesh/actions/runs/9',
        head_repository: { full_name: 'someone/mesh' },
        pull_requests: [],
      },
    },
  );
  assert.deepEqual(wr.workflowRun, {
    id: 9,
    name: 'mesh-perf fork-safe benchmark',
    headSha: 'c'.repeat(40),
    headRepo: 'someone/mesh',
    headBranch: 'patch-1',
    event: 'pull_request',
    conclusion: 'success',
    htmlUrl: 'https://github.test/octo/mesh/actions/runs/9',
    pullRequests: [],
  });
  assert.equal(readGitHubEvent({ GITHUB_REPOSITORY: 'not a repo' }, null).repository, undefined);
});

test('comment policy: off never, on-failure only when not passing, always always', () => {
  const table: [Parameters<typeof shouldComment>[0], Parameters<typeof shouldComment>[1], boolean][] = [
    ['off', 'pass', false],
    ['off', 'fail', false],
    ['on-failure', 'pass', false],
    ['on-failure', 'fail', true],
    ['on-failure', 'invalid', true],
    ['always', 'pass', true],
    ['always', 'invalid', true],
  ];
  for (const [policy, verdict, post] of table) assert.equal(shouldComment(policy, verdict).post, post, `${policy}/${verdict}`);
  assert.equal(normalizeLogin('github-actions[bot]'), normalizeLogin('github-actions'));
  assert.notEqual(normalizeLogin('github-actions-fake'), normalizeLogin('github-actions'));
});

test('action inputs map onto the shared override table; empty inputs are unset', () => {
  const values: Record<string, string> = {
    rate: '250',
    gates: 'p(95) < 250ms\nerror_rate < 1%',
    comment: 'on-failure',
    token: 't',
    'working-directory': 'bench',
    platform: '',
  };
  const inputs = readActionInputs((name) => values[name] ?? '');
  assert.deepEqual(inputs.overrides, { rate: '250', gates: 'p(95) < 250ms\nerror_rate < 1%', comment: 'on-failure' });
  assert.equal(inputs.workingDirectory, 'bench');
  assert.equal(inputs.configFile, undefined);
  const names = actionInputNames();
  for (const override of OVERRIDES) assert.ok(names.includes(override.input), override.input);
  assert.equal(new Set(names).size, names.length, 'no input name twice');
});
