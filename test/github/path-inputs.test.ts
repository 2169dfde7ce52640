// `~` in a path input means $HOME, as in a shell and in actions/cache: the runner passes inputs
// verbatim, so the action expands it wherever it reads a path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readActionInputs } from '../../src/github/inputs.ts';
import { expandHome } from '../../src/github/path-input.ts';

test('expandHome: ~ and ~/x under the home directory, nothing else', () => {
  assert.equal(expandHome('~', '/home/runner'), '/home/runner');
  assert.equal(expandHome('~/mesh-perf-tools', '/home/runner'), '/home/runner/mesh-perf-tools');
  assert.equal(expandHome('./~/x', '/home/runner'), './~/x');
  assert.equal(expandHome('~user/x', '/home/runner'), '~user/x');
  assert.equal(expandHome('/abs/~/x', '/home/runner'), '/abs/~/x');
  assert.equal(expandHome('https://github.com/o/r.git', '/home/runner'), 'https://github.com/o/r.git');
  assert.equal(expandHome('', '/home/runner'), '');
});

test("the action's path inputs expand ~: config, working-directory, kubeconfig-file, history-store", () => {
  const home = process.env.HOME;
  process.env.HOME = '/home/runner';
  try {
    const values: Record<string, string> = {
      config: '~/perf/mesh-perf.yaml',
      'working-directory': '~/src',
      'kubeconfig-file': '~/.kube/config',
      'history-store': '~/history',
      suite: '~not-a-path',
    };
    const inputs = readActionInputs((name) => values[name] ?? '');
    assert.equal(inputs.configFile, '/home/runner/perf/mesh-perf.yaml');
    assert.equal(inputs.workingDirectory, '/home/runner/src');
    assert.equal(inputs.overrides['kubeconfig-file'], '/home/runner/.kube/config');
    assert.equal(inputs.overrides['history-store'], '/home/runner/history');
    assert.equal(inputs.overrides.suite, '~not-a-path', 'only path inputs');
  } finally {
    process.env.HOME = home;
  }
});
