// What a preset is, apart from the list of presets (index.ts) so each preset file can name it.
import type { SeedFormatName } from './format-names.ts';

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
