// The workflow_run commenter distrusts an artifact whose run did not succeed: its verdict is shown
// as invalid, and none of its own gate decisions may read as a pass either.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderComment } from '../../src/github/comment-body.ts';
import { reconcileWithConclusion } from '../../src/github/run-conclusion.ts';
import { buildRunView } from '../../src/report/view.ts';
import { analyzeWorded, syntheticRun, testConfig } from '../analysis/synthetic.ts';

function passingRun() {
  const config = testConfig({}, ['baseline', 'sidecar']);
  const steady = [1, 1.01, 0.99, 1.02, 0.98];
  const result = syntheticRun({ config, levels: { baseline: steady, sidecar: steady.map((v) => v + 0.3) } });
  result.analysis = analyzeWorded(result, { config });
  result.verdict = result.analysis.verdict;
  result.verdictReasons = result.analysis.verdictReasons;
  return result;
}

test('a run that concluded failure: invalid, and no gate of the artifact shows ✅', () => {
  const artifact = passingRun();
  assert.equal(artifact.verdict, 'pass');
  assert.match(
    renderComment({ view: buildRunView(artifact), links: {} }).body,
    /✅ pass \| load\.maxErrorRate/,
    'the artifact claims passes',
  );
  const { result, disagreement } = reconcileWithConclusion(artifact, 'failure');
  assert.equal(result.verdict, 'invalid');
  assert.match(disagreement ?? '', /concluded failure/);
  const body = renderComment({ view: buildRunView(result), links: {} }).body;
  assert.ok(!body.includes('✅'), body);
  assert.match(body, /sidecar/, 'the figures are still shown');
});

test('a run that succeeded keeps the artifact as it is', () => {
  const artifact = passingRun();
  assert.equal(reconcileWithConclusion(artifact, 'success').result, artifact);
});
