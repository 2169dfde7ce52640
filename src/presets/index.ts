// Presets reproduce published benchmarks (../seeds). A preset is a raw config that the user's
// own fields override.
export interface Preset {
  name: string;
  summary: string;
  seed: string;
  config: Record<string, unknown>;
}

export const PRESETS: Preset[] = [];

export function findPreset(name: string): Preset | undefined {
  return PRESETS.find((p) => p.name === name);
}
