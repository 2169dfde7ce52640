// What a preset is, apart from the list of presets (index.ts) so each preset file can name it.
import type { SourceFormatName } from './format-names.ts';

export interface Preset {
  name: string;
  /** One line for `mesh-perf presets`. */
  summary: string;
  /** Source benchmark number (../seeds/NNN_*.txt) this preset reproduces. */
  source: string;
  /** The preset this one is a variant of. */
  variantOf?: string;
  /** The source benchmarks' own output formats written beside the standard reports. */
  formats: SourceFormatName[];
  config: Record<string, unknown>;
}
