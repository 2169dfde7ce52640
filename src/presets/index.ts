// Presets reproduce published benchmarks (../seeds). A preset is a raw config that the user's
// own fields override (src/config/load.ts merges preset < file < flags). Variants of one source benchmark are
// named `<preset>-<what differs>`: `ambient-modes-400`, `ambient-modes-tcp`.
import type { Preset } from './types.ts';
import { ambientModes, ambientModes400, ambientModesCpu, ambientModesTcp } from './ambient-modes.ts';
import { istioLinkerdFortio } from './istio-linkerd-fortio.ts';
import { istioSynthetic, istioSynthetic400 } from './istio-synthetic.ts';
import { kymaSidecar } from './kyma-sidecar.ts';
import { udsScale } from './uds-scale.ts';

export const PRESETS: Preset[] = [
  kymaSidecar,
  istioLinkerdFortio,
  istioSynthetic,
  istioSynthetic400,
  ambientModes,
  ambientModes400,
  ambientModesCpu,
  ambientModesTcp,
  udsScale,
];

export function findPreset(name: string): Preset | undefined {
  return PRESETS.find((p) => p.name === name);
}
