// Finding a mode of a run: one name in one load profile (a mode appears once per profile).
import type { ModeResult, RunResult } from './types.ts';

export function findMode(result: RunResult, name: string, profile: string): ModeResult | undefined {
  return result.modes.find((m) => m.name === name && m.profile === profile);
}
