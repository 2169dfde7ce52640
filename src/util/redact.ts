// The one redaction every output goes through: results, reports, exports, the store's files, the
// terminal and the action's logs. Three rules, applied to any text:
//  - the userinfo of every URL (`https://x-access-token:ghp_…@host` → `https://***@host`) and the
//    value of every credential-looking query parameter (`?access_token=…` → `?access_token=***`);
//  - every value the process was given as a secret (registered below: tokens from the
//    environment, secret-named env/header values of the config, passwords inside URLs);
//  - values shaped like well-known tokens (GitHub, GitLab, Slack, AWS keys, JWTs).
// Values of the maps the user names (env, headers) are also redacted by their key (SECRET_NAME).
// The registry is process-wide, like @actions/core's setSecret: whatever registers a secret
// protects every output written after it, whichever module writes it.

export const REDACTED = '[redacted]';
const MASK = '***';

/** Names of environment variables, headers and query parameters whose values are credentials. */
const SECRET_NAME =
  /token|secret|passw(?:or)?d|auth|key|private|credential|cookie|session|signature|(?:^|[-_])(?:pat|sig|pw|pass)(?:$|[-_])/i;

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** Registered values shorter than this are not searched for (they would redact ordinary words). */
const MIN_SECRET_LENGTH = 8;
const registered = new Set<string>();
/** The registered values longest first (a secret containing another is replaced whole); rebuilt on registration. */
let longestFirst: string[] = [];
const listeners: ((secret: string) => void)[] = [];

/** Remembers a credential so that every later output has it replaced, in clear and in its common encodings. */
export function registerSecret(value: string | undefined): void {
  if (!value || value.length < MIN_SECRET_LENGTH) return;
  for (const form of [value, encodeURIComponent(value), Buffer.from(value).toString('base64')]) {
    if (form.length < MIN_SECRET_LENGTH || registered.has(form)) continue;
    registered.add(form);
    longestFirst = [...registered].sort((a, b) => b.length - a.length);
    redactedKeys.clear();
    for (const listener of listeners) listener(form);
  }
}

/** Told every secret registered, before and after (the action masks them in the job's log too). */
export function onSecretRegistered(listener: (secret: string) => void): void {
  listeners.push(listener);
  for (const secret of registered) listener(secret);
}

/** Every environment variable whose name says it holds a credential (GITHUB_TOKEN, GH_PAT, …). */
export function registerEnvSecrets(env: NodeJS.ProcessEnv): void {
  for (const [name, value] of Object.entries(env)) if (isSecretName(name)) registerSecret(value);
}

/** The credentials inside the URLs of a text (userinfo, secret query values), for registerSecret. */
export function urlSecrets(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(USERINFO)) {
    const userinfo = match[2]!;
    found.push(userinfo);
    const colon = userinfo.indexOf(':');
    if (colon >= 0) found.push(safeDecode(userinfo.slice(colon + 1)));
  }
  for (const match of text.matchAll(QUERY_PARAM)) if (isSecretName(match[2]!)) found.push(safeDecode(match[3]!));
  return found;
}

// A scheme is at most 32 characters (RFC 3986 sets no limit; registered ones are far shorter): an
// unbounded one made a 100,000-letter argument cost 12 s (each start position scanned to the end).
const USERINFO = /([a-z][a-z0-9+.-]{0,31}:\/\/)([^/?#@\s"'<>]+)@/gi;
const QUERY_PARAM = /([?&])([A-Za-z0-9_.-]+)=([^&#\s"'<>]+)/g;
const TOKEN_SHAPES = [
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bglpat-[A-Za-z0-9_-]{20,}/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
];
/** What every TOKEN_SHAPES match starts with: text without any of these has no token to mask. */
const TOKEN_PREFIX = /gh[pousr]_|github_pat_|glpat-|xox[abposr]-|AKIA|eyJ/;

export function redactText(text: string): string {
  // Each rule runs only on text that has what its pattern needs ("://" and "@", "=", a token's
  // prefix): a results file of 200,000 repetitions is mostly numbers' keys and timestamps, and
  // running all eight patterns on each of its strings made reading it back take 12 s.
  let out = text;
  if (out.includes('@') && out.includes('://')) out = out.replace(USERINFO, `$1${MASK}@`);
  if (out.includes('=')) {
    out = out.replace(QUERY_PARAM, (whole, sep: string, name: string) => (isSecretName(name) ? `${sep}${name}=${MASK}` : whole));
  }
  if (TOKEN_PREFIX.test(out)) for (const shape of TOKEN_SHAPES) out = out.replace(shape, MASK);
  for (const secret of longestFirst) {
    if (out.includes(secret)) out = out.split(secret).join(MASK);
  }
  return out;
}

/** Keys whose value is a map the user names (k6 environment, request headers): redacted by name too. */
const NAMED_MAPS = new Set(['env', 'headers']);

/**
 * A deep copy with every string redacted (keys included), and the entries of env and header maps
 * with secret names replaced; numbers, booleans and nulls unchanged.
 */
export function redactValue<T>(value: T, key = ''): T {
  return redactInPlace(structuredClone(value), key);
}

/**
 * redactValue without the copy, for a document this process owns (a results file just parsed, a
 * copy it made): only what changes is replaced. Reading 200,000 repetitions back spent most of its
 * time allocating and collecting a copy.
 */
export function redactInPlace<T>(value: T, key = ''): T {
  if (typeof value === 'string') return redactText(value) as T;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = redactInPlace(value[i]);
    return value;
  }
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const named = NAMED_MAPS.has(key);
    for (const k of Object.keys(record)) {
      const v = record[k];
      const next = named && typeof v === 'string' && isSecretName(k) ? REDACTED : redactInPlace(v, k);
      const safeKey = redactKey(k);
      if (safeKey !== k) delete record[k];
      if (safeKey !== k || next !== v) record[safeKey] = next;
    }
  }
  return value;
}

/**
 * Keys repeat (every repetition has the same few dozen), so each is redacted once; the cache is
 * dropped when a secret is registered, as its answers may change.
 */
const redactedKeys = new Map<string, string>();
function redactKey(k: string): string {
  let out = redactedKeys.get(k);
  if (out === undefined) {
    out = redactText(k);
    if (redactedKeys.size < 10_000) redactedKeys.set(k, out);
  }
  return out;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
