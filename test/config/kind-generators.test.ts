// load.generators on platform kind: the config's worker count decides whether N client pods and
// the echo server can ever be placed (exit 2 before anything starts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, validateConfig } from '../../src/config/validate.ts';
import { EXIT } from '../../src/util/errors.ts';

const kind = (load: unknown, workers?: number) =>
  validateConfig({ platform: 'kind', modes: [{ name: 'baseline' }], load, ...(workers ? { kubernetes: { kind: { workers } } } : {}) });

function problems(fn: () => unknown): string[] {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    assert.equal(error.exitCode, EXIT.usage);
    return error.problems.map((p) => `${p.path}: ${p.message}`);
  }
  return [];
}

test('N generators need N + 1 kind workers; the message names the field to set', () => {
  assert.deepEqual(
    problems(() => kind({ rate: 100, generators: 1 })),
    [],
  );
  assert.deepEqual(
    problems(() => kind({ rate: 100, generators: 2 }, 3)),
    [],
  );
  assert.deepEqual(
    problems(() => kind({ rate: 100, generators: 2 })),
    [
      'kubernetes.kind.workers: 2 cannot hold load.generators 2: 2 client pods on separate nodes and one more node for the echo server need 3 kind workers; set kubernetes.kind.workers: 3',
    ],
  );
  // The profile that needs the most is named.
  assert.match(
    problems(() => kind([{ rate: 100 }, { rate: 200, generators: 4 }], 3))[0]!,
    /^kubernetes\.kind\.workers: 3 cannot hold load\[1\]\.generators 4: .*need 5 kind workers; set kubernetes\.kind\.workers: 5$/,
  );
  assert.deepEqual(
    problems(() => kind({ rate: 100, generators: 6 }, 6)),
    [
      'load.generators: 6 is more than a kind cluster can hold: 6 client pods on separate nodes and one more node for the echo server need 7 kind workers, and kubernetes.kind.workers is at most 6; expected at most 5, or use platform kubeconfig with a larger cluster',
    ],
  );
  // auto is chosen from the kind cluster's nodes at run time, within what they hold.
  assert.deepEqual(
    problems(() => kind({ rate: 100, generators: 'auto' })),
    [],
  );
  // Other platforms are not kind's business.
  assert.deepEqual(
    problems(() => validateConfig({ platform: 'kubeconfig', modes: [{ name: 'baseline' }], load: { rate: 100, generators: 4 } })),
    [],
  );
});
