// Presets reproduce published benchmarks (../seeds). A preset is a raw config that the user's
// own fields override (src/config/load.ts merges preset < file < flags). Variants of one seed are
// named `<preset>-<what differs>`: `ambient-modes-400`, `ambient-modes-tcp`.
import type { SeedFormatName } from '../report/formats/names.ts';
import { ambientModes, ambientModes400, ambientModesTcp } from './ambient-modes.ts';
import { istioLinkerdFortio } from './istio-linkerd-fortio.ts';
import { istioSynthetic, istioSynthetic400 } from './istio-synthetic.ts';
import { kymaSidecar } from './kyma-sidecar.ts';
import { udsScale } from './uds-scale.ts';

export interface Preset {
  name: string;
  /** One line for `mesh-perf presets`. */
  summary: string;
  /** Seed document number (../seeds/NNN_*.txt) this preset reproduces. */
  seed: string;
  /** The preset this one is a variant of. */
  variantOf?: string;
  /** Seed-specific output formats written beside the standard reports. */
  formats: SeedFormatName[];
  config: Record<string, unknown>;
}

export const PRESETS: Preset[] = [
  kymaSidecar,
  istioLinkerdFortio,
  istioSynthetic,
  istioSynthetic400,
  ambientModes,
  ambientModes400,
  ambientModesTcp,
  udsScale,
];

export function findPreset(name: string): Preset | undefined {
  return PRESETS.find((p) => p.name === name);
}
