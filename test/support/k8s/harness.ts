// Shared pieces of the Kubernetes integration tests: a config pointing at the local control
// plane with a random namespace prefix and suite, a logger that records, random names.
import { randomBytes } from 'node:crypto';
import { validateConfig, type Config } from '../../../src/config/validate.ts';
import type { Logger } from '../../../src/util/log.ts';
import type { LocalCluster } from './cluster.ts';

export function randomName(prefix: string): string {
  return `${prefix}-${randomBytes(3).toString('hex')}`;
}

export interface RecordingLogger extends Logger {
  lines: string[];
}

export function recordingLogger(): RecordingLogger {
  const lines: string[] = [];
  return {
    lines,
    phase: (t) => lines.push(`## ${t}`),
    info: (m) => lines.push(m),
    warn: (m) => lines.push(`WARN ${m}`),
    progress: () => {},
    progressDone: () => {},
  };
}

export function clusterConfig(cluster: LocalCluster, raw: Record<string, unknown> = {}): Config {
  const { kubernetes, ...rest } = raw as { kubernetes?: Record<string, unknown> };
  return validateConfig({
    platform: 'kubeconfig',
    suite: randomName('t'),
    modes: [{ name: 'baseline' }],
    load: { rate: 20, duration: '2s', warmup: '1s', repetitions: 1 },
    ...rest,
    kubernetes: {
      kubeconfig: cluster.kubeconfigPath,
      namespacePrefix: randomName('mp'),
      readyTimeout: '60s',
      sampleInterval: '500ms',
      ...kubernetes,
    },
  });
}
