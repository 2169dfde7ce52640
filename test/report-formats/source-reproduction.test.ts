// Each source-benchmark format, fed the figures a source benchmark document published, must print them the way that
// document does. The expected text below is copied from ../shared/seeds (000, 003, 004).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderAmbientCsv, renderAmbientTable } from '../../src/report/formats/ambient.ts';
import { renderKymaTables } from '../../src/report/formats/kyma.ts';
import { renderNamespaceTable } from '../../src/report/formats/namespace-table.ts';
import { renderVegetaBlock } from '../../src/report/formats/vegeta.ts';
import { sourceAmbientRun, sourceKymaRuns, sourceUdsRun } from './fixture.ts';
import { buildRunView } from '../../src/report/view.ts';

test('source benchmark 003: the CSV rows match the ambient script README byte for byte', () => {
  const csv = renderAmbientCsv(buildRunView(sourceAmbientRun()));
  const fromSource = [
    ',No Mesh,With Istio Sidecars,Ambient (only uProxies),Ambient (uProxies + PEPs),',
    'p50,0.999807,1.20141,1.35635,1.63411,',
    'p90,1.20627,1.52237,2.02035,2.86694,',
    'p99,5.14918,5.61587,6.44147,21.0422,',
    'Max,31.6416,18.8078,16.1807,77.7257,',
  ].join('\n');
  assert.ok(csv.includes(`\n\n${fromSource}\n`), csv);
  const lines = csv.split('\n');
  assert.equal(lines[0], 'Run time: Mon Jul 11 07:35:26 UTC 2022');
  assert.equal(lines[2], 'Service port name: tcp-enforcment');
});

test('source benchmark 003: the plain table holds the same cells as the CSV, in conv_results.sh layout', () => {
  const table = renderAmbientTable(buildRunView(sourceAmbientRun())).trimEnd().split('\n');
  assert.equal(table.length, 5);
  assert.match(
    table[0]!,
    /^\| Perc\. {2}\| No Mesh +\| With Istio Sidecars \| Ambient \(only uProxies\) \| Ambient \(uProxies \+ PEPs\) \|$/,
  );
  const cells = table.map((line) =>
    line
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim()),
  );
  assert.deepEqual(cells[3], ['p99', '5.14918', '5.61587', '6.44147', '21.0422']);
  // Every line is as wide as the header: the columns line up.
  for (const line of table) assert.equal(line.length, table[0]!.length);
});

test('source benchmark 004: vegeta blocks match the UDS document line for line (Duration line left out)', () => {
  const result = sourceUdsRun();
  const [twenty, fifty] = result.modes;
  assert.equal(
    renderVegetaBlock(twenty!.repetitions[0]!),
    [
      'Requests      [total, rate, throughput]         6000, 20.00, 20.00',
      'Latencies     [min, mean, 50, 90, 95, 99, max]  588.001µs, 1.036ms, 996.513µs, 1.325ms, 1.47ms, 1.822ms, 21ms',
      'Bytes In      [total, mean]                     3690000, 615.00',
      'Bytes Out     [total, mean]                     0, 0.00',
      'Success       [ratio]                           100.00%',
      'Status Codes  [code:count]                      200:6000',
      'Error Set:',
      '',
    ].join('\n'),
  );
  assert.match(
    renderVegetaBlock(fifty!.repetitions[0]!),
    /^Latencies {5}\[min, mean, 50, 90, 95, 99, max\] {2}509\.695µs, 879\.616µs, 838\.414µs, 1\.121ms, 1\.315ms, 1\.737ms, 23\.104ms$/m,
  );
});

test("source benchmark 004: one job, a heading per scenario in the document's words, the pod count from each profile", async () => {
  const { renderUdsReport } = await import('../../src/report/formats/uds.ts');
  const headings = renderUdsReport(buildRunView(sourceUdsRun()))
    .split('\n')
    .filter((l) => l.startsWith('### '));
  assert.deepEqual(headings, [
    '### 20 requests per second to a single Pod',
    '### 50 requests per second to a single Pod',
    '### 20 requests per second loadbalanced between 10 Pods',
  ]);
  const ten = sourceUdsRun().modes[2]!.repetitions[0]!;
  assert.match(
    renderVegetaBlock(ten),
    /^Latencies {5}\[min, mean, 50, 90, 95, 99, max\] {2}642\.163µs, 1\.19ms, 1\.135ms, 1\.49ms, 1\.609ms, 2\.081ms, 25\.016ms$/m,
  );
  assert.match(renderNamespaceTable(ten.resources!), /^nginx {18}1m {8}193m {6}29\.57m {4}55Mi {6}534Mi {5}503\.74Mi$/m);
});

test('source benchmark 004: namespace tables match the UDS document, TOTAL included', () => {
  const [twenty, fifty] = sourceUdsRun().modes;
  assert.equal(
    renderNamespaceTable(twenty!.repetitions[0]!.resources!),
    [
      'Namespace              CPU_min   CPU_max   CPU_avg   Mem_min   Mem_max   Mem_avg',
      'istio-tenant-gateway   1m        8m        7.14m     47Mi      50Mi      48.38Mi',
      'nginx                  1m        9m        8.21m     55Mi      55Mi      55.00Mi',
      'istio-system           1m        3m        1.19m     80Mi      90Mi      84.41Mi',
      'TOTAL                  3m        20m       16.53m    182Mi     195Mi     187.79Mi',
      '',
    ].join('\n'),
  );
  assert.match(renderNamespaceTable(fifty!.repetitions[0]!.resources!), /^TOTAL {18}3m {8}36m {7}30\.45m {4}182Mi {5}188Mi {5}185\.16Mi$/m);
});

test("source benchmark 000: Kyma's rows come out with Kyma's figures, meshed deployment first", () => {
  const text = renderKymaTables(sourceKymaRuns().map((r) => buildRunView(r)));
  // Kyma's second table, its columns in Kyma's words and order.
  assert.match(
    text,
    /^\| Date \| Sidecar - Median iteration duration \[ms\] \| No-sidecar - Median iteration duration \[ms\] \| Sidecar - 95th percentile \[ms\] \| No-sidecar - 95th percentile \[ms\] \|$/m,
  );
  const rows = text
    .split('\n')
    .filter((line) => /^\| (Sidecar|No-sidecar|20\d\d-)/.test(line))
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim()),
    );
  assert.deepEqual(rows, [
    ['Sidecar', '312444', '0', '291.78', '4.86', '24.35', '0.41'],
    ['No-sidecar', '402166', '0', '553.67', '9.23', '31.26', '0.52'],
    ['2025-07-08', '84.66', '67.83', '172.01', '139.31'],
    ['2025-07-09', '89.22', '66.37', '181.55', '143.61'],
    // Then our request-duration table (Kyma's thresholds gate on it; the fixture's are 0.9 ×).
    ['2025-07-08', '76.19', '61.05', '154.81', '125.38'],
    ['2025-07-09', '80.30', '59.73', '163.40', '129.25'],
  ]);
});
