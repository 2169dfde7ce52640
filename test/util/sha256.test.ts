// The pure SHA-256 (settings fingerprints are computed where the browser migrates runs too) gives
// node:crypto's digest for the padding's edge lengths, multi-byte text and a long input.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { sha256Hex } from '../../src/util/sha256.ts';

test('sha256Hex is SHA-256 of the UTF-8 bytes', () => {
  for (const text of ['', 'abc', 'a'.repeat(55), 'a'.repeat(56), 'a'.repeat(63), 'a'.repeat(64), 'é∑ 🚀', 'x'.repeat(70_000)]) {
    assert.equal(sha256Hex(text), createHash('sha256').update(text, 'utf8').digest('hex'), `length ${text.length}`);
  }
  assert.equal(sha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
});
