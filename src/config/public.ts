// The config as recorded in results.json and reports: values that may carry credentials
// (environment variables and headers with secret-looking names) are replaced.
import type { Config } from './validate.ts';

const SECRET_NAME = /token|secret|password|passwd|auth|api[-_]?key|credential|cookie|session/i;
export const REDACTED = '[redacted]';

function redactRecord(record: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!record) return record;
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, SECRET_NAME.test(k) ? REDACTED : v]));
}

export function publicConfig(config: Config): Record<string, unknown> {
  const copy = structuredClone(config) as Config;
  for (const mode of copy.modes) if (mode.env) mode.env = redactRecord(mode.env);
  for (const profile of copy.profiles) if (profile.headers) profile.headers = redactRecord(profile.headers);
  return copy as unknown as Record<string, unknown>;
}
