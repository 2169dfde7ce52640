// A report without CPU/memory says why: a Kubernetes run's windows were too short for two kubelet
// samples (or the metrics were unavailable), where the local and endpoints platforms never sample.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderHtmlReport } from '../../src/report/html/render.ts';
import { noResourcesReason } from '../../src/report/no-resources.ts';
import { buildRunResult } from '../support/results-fixture.ts';
import { buildRunView } from '../../src/report/view.ts';

test('the missing CPU/memory note names the reason for the platform', () => {
  assert.equal(noResourcesReason('endpoints'), 'platform endpoints does not sample resources');
  assert.match(noResourcesReason('kind'), /fewer than the two kubelet samples CPU needs .*measure for at least 60 s/);
  const result = buildRunResult({ resources: false });
  result.run.platform = 'kubeconfig';
  const html = renderHtmlReport(buildRunView(result), { chartJs: { inline: 'window.Chart = function () {};' } });
  assert.ok(
    html.includes('No CPU/memory figures for this profile: the measured window held fewer than the two kubelet samples CPU needs'),
    html.slice(html.indexOf('No CPU')),
  );
});
