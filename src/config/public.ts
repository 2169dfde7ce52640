// The config as recorded in results.json and reports, redacted (util/redact.ts): env and header
// values with secret names, URL credentials and every registered secret. registerConfigSecrets
// runs as the config is loaded, so a secret it holds is also redacted wherever else it shows up
// (k6 errors, logs, the terminal).
import { isSecretName, redactValue, registerSecret, urlSecrets } from '../util/redact.ts';
import type { Config } from './validate.ts';

export function publicConfig(config: Config): Record<string, unknown> {
  return redactValue(config as unknown as Record<string, unknown>);
}

/**
 * Registers what a raw or validated config holds as secrets: the value of every secret-named key
 * (GH_PAT, Authorization, X-Private, …) and the credentials inside every URL.
 */
export function registerConfigSecrets(raw: unknown, key = ''): void {
  if (typeof raw === 'string') {
    // "Bearer <token>", "sid=<id>; theme=dark": the whole value and each of its words.
    if (key && isSecretName(key)) for (const part of [raw, ...raw.split(/[\s;,=]+/)]) registerSecret(part);
    for (const secret of urlSecrets(raw)) registerSecret(secret);
  } else if (Array.isArray(raw)) {
    for (const item of raw) registerConfigSecrets(item);
  } else if (typeof raw === 'object' && raw !== null) {
    for (const [k, v] of Object.entries(raw)) registerConfigSecrets(v, k);
  }
}
