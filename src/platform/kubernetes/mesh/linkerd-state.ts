// Whether Linkerd must be installed, upgraded or left as it is. `linkerd install` refuses to run
// when the linkerd-config ConfigMap exists (a previous `up`/`run` of ours), so a second run
// upgrades instead; when the installed version and every value we set already match, nothing is
// rendered at all. Pure: the caller reads the ConfigMap.
import { parse } from 'yaml';

export interface LinkerdInstalled {
  /** linkerdVersion from the stored values, e.g. "edge-26.9.1" ("unknown" when absent). */
  version: string;
  /** The chart values Linkerd stored in linkerd-config (`data.values`). */
  values: Record<string, unknown>;
}

export type LinkerdStep = 'install' | 'upgrade' | 'current';

interface ConfigMapLike {
  data?: Record<string, string>;
  metadata?: { annotations?: Record<string, string> };
}

/** Reads the linkerd-config ConfigMap the CLI renders (data.values is the chart's values as YAML). */
export function parseLinkerdConfig(configMap: ConfigMapLike): LinkerdInstalled {
  let values: Record<string, unknown> = {};
  try {
    const parsed: unknown = parse(configMap.data?.values ?? '');
    if (parsed && typeof parsed === 'object') values = parsed as Record<string, unknown>;
  } catch {
    // An unreadable values document only means we cannot prove it is current: upgrade.
  }
  // The CLI also stamps `linkerd.io/created-by: linkerd/cli <version>`.
  const createdBy = configMap.metadata?.annotations?.['linkerd.io/created-by']?.split(' ').pop();
  const version = typeof values.linkerdVersion === 'string' ? values.linkerdVersion : (createdBy ?? 'unknown');
  return { version, values };
}

/** A --set key's value in the stored values; undefined for paths we cannot follow (lists, escapes). */
export function valueAt(values: Record<string, unknown>, key: string): string | undefined {
  if (/[[\]\\]/.test(key)) return undefined;
  let node: unknown = values;
  for (const part of key.split('.')) {
    if (!node || typeof node !== 'object' || !(part in node)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node === null || typeof node === 'object' ? undefined : String(node);
}

export function linkerdStep(
  installed: LinkerdInstalled | undefined,
  wanted: { version: string; values: Record<string, string> },
): LinkerdStep {
  if (!installed) return 'install';
  if (installed.version !== wanted.version) return 'upgrade';
  const differs = Object.entries(wanted.values).some(([key, value]) => valueAt(installed.values, key) !== value);
  return differs ? 'upgrade' : 'current';
}
