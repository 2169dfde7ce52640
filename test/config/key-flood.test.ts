// A flood of unknown keys inside a section (`load:`, `modes[0].local:`) is refused by a line scan,
// before the YAML parser spends ~20 µs a line on it; valid files that merely look like floods
// (block scalars, records such as headers, long lists) are left to the parser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refuseKeyFlood } from '../../src/config/key-flood.ts';
import { ConfigError } from '../../src/config/validate.ts';
import { parseYaml } from '../../src/config/load.ts';
import { validateConfig } from '../../src/config/validate.ts';

const keys = (count: number, indent: string) => Array.from({ length: count }, (_, i) => `${indent}k${i}: v${i}`).join('\n');

function refusal(text: string): ConfigError {
  try {
    refuseKeyFlood(text, 'f.yaml');
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    return error;
  }
  assert.fail('the flood was not refused by the scan');
}

test('a flood inside load: refused by the scan, path, first keys with their lines, the count', () => {
  const error = refusal(`modes: [{ name: a }]\nload:\n  rate: 5\n${keys(20_000, '  ')}\n`);
  assert.equal(error.problems.length, 1);
  assert.equal(error.problems[0]!.path, 'load');
  assert.match(
    error.problems[0]!.message,
    /^unknown keys "k0" \(line 4\), "k1" \(line 5\), "k2" \(line 6\), "k3" \(line 7\), "k4" \(line 8\) and 19,995 more unknown keys \(expected one of: name, model, rate,/,
  );
  assert.equal(error.exitCode, 2);
});

test('floods in list items and nested sections are placed: load[1], modes[0].local (compact list)', () => {
  const inList = refusal(`modes: [{ name: a }]\nload:\n  - rate: 5\n  - rate: 6\n${keys(300, '    ')}\n`);
  assert.deepEqual(
    inList.problems.map((p) => p.path),
    ['load[1]'],
  );
  const nested = refusal(`modes:\n- name: a\n  local:\n    hops: 1\n${keys(300, '    ')}\nload: { rate: 5 }\n`);
  assert.deepEqual(
    nested.problems.map((p) => p.path),
    ['modes[0].local'],
  );
  assert.match(nested.problems[0]!.message, /"k0" \(line 5\).* and 295 more unknown keys \(expected one of: hops, delay, jitter, port\)/);
});

test('a file that starts with "---" is scanned too', () => {
  assert.equal(refusal(`---\nmodes: [{ name: a }]\nload:\n  rate: 5\n${keys(300, '  ')}\n`).problems[0]!.path, 'load');
});

test('the top level keeps its wording', () => {
  const error = refusal(`modes: [{ name: a }]\n${keys(1000, '')}\n`);
  assert.equal(error.problems[0]!.path, '');
  assert.match(error.problems[0]!.message, /"k0" \(line 2\).* and 995 more unknown top-level keys/);
});

test('look-alikes are not refused: a block scalar body, a record of headers, many modes, a multi-line quoted value', () => {
  const lookAlikes = [
    `modes: [{ name: a }]\nload:\n  rate: 5\n  body: |\n${keys(500, '    ')}\n  method: POST\n`,
    `modes: [{ name: a }]\nload:\n  rate: 5\n  headers:\n${keys(500, '    ')}\n`,
    `modes:\n${Array.from({ length: 300 }, (_, i) => `  - name: m${i}\n    local: { hops: 0 }`).join('\n')}\nload: { rate: 5 }\n`,
    `modes: [{ name: a }]\nload:\n  rate: 5\n  body: "first\n${keys(500, '    ')}\n    last"\n`,
    `modes: [{ name: a }]\ngates:\n  - >\n${keys(500, '    ')}\nload: { rate: 5 }\n`,
  ];
  for (const text of lookAlikes) {
    assert.doesNotThrow(() => refuseKeyFlood(text, 'f.yaml'), text.slice(0, 80));
  }
  // and the first three are configs the validator accepts: the scan refused nothing valid
  for (const text of lookAlikes.slice(0, 3)) validateConfig(parseYaml(text, 'f.yaml'), 'f.yaml');
});

test('a few unknown keys are left to validation (did-you-mean and all)', () => {
  assert.doesNotThrow(() => refuseKeyFlood(`modes: [{ name: a }]\nload:\n  rate: 5\n${keys(200, '  ')}\n`, 'f.yaml'));
});
