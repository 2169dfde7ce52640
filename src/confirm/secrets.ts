// A stored config has its credentials masked ([redacted] values of secret-named env and headers,
// *** in URLs: util/redact.ts). A confirmation runs the stored settings again, so each masked value
// is taken from today's config at the same place (modes and load profiles matched by name); a
// masked value today's config does not hold cannot be run (cannot re-run, naming it). Pure.
import { REDACTED } from '../util/redact.ts';

type Raw = Record<string, unknown>;

const masked = (value: string) => value.includes(REDACTED) || /\*\*\*@|=\*\*\*/.test(value);

/** `stored` with every masked string restored from `current`; the paths of those it could not restore. */
export function restoreSecrets(stored: Raw, current: Raw | undefined): { config: Raw; missing: string[] } {
  const missing: string[] = [];
  const walk = (value: unknown, today: unknown, path: string): unknown => {
    if (typeof value === 'string') {
      if (!masked(value)) return value;
      if (typeof today === 'string' && !masked(today)) return today;
      missing.push(path);
      return value;
    }
    if (Array.isArray(value)) {
      const list = Array.isArray(today) ? today : [];
      return value.map((item, i) => {
        const name = (item as { name?: unknown } | null)?.name;
        const match = typeof name === 'string' ? list.find((t) => (t as { name?: unknown } | null)?.name === name) : list[i];
        return walk(item, match, `${path}[${typeof name === 'string' ? name : i}]`);
      });
    }
    if (typeof value === 'object' && value !== null) {
      const other = typeof today === 'object' && today !== null ? (today as Raw) : {};
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, other[k], path ? `${path}.${k}` : k)]));
    }
    return value;
  };
  return { config: walk(stored, current, '') as Raw, missing };
}
