// The source benchmarks' own output formats, by name. A preset lists the ones its readers know; the
// renderers live next to this file and read only a RunResult.
export const SOURCE_FORMATS = {
  'kyma-tables': {
    file: 'kyma-tables.md',
    source: '000',
    description: "Kyma's tables: calls, data and transfer speed; median and p95 per date",
  },
  'fortio-runs': {
    file: 'fortio-runs.md',
    source: '001',
    description: 'p50..p99.9 of every run, per mode and protocol (the Minikube report plots)',
  },
  'istio-sizing': {
    file: 'istio-sizing.md',
    source: '002',
    description: 'added latency per percentile and vCPU/MB per 1000 rps (Istio sizing units)',
  },
  'ambient-csv': {
    file: 'ambient-results.csv',
    source: '003',
    description: 'the ambient script CSV: rows p50/p90/p99/Max, a column per mode (ms)',
  },
  'ambient-table': { file: 'ambient-results.txt', source: '003', description: 'the same figures as conv_results.sh prints them' },
  'uds-report': {
    file: 'uds-report.md',
    source: '004',
    description: 'vegeta-style text block and namespace CPU/memory table per scenario',
  },
} as const;

export type SourceFormatName = keyof typeof SOURCE_FORMATS;
