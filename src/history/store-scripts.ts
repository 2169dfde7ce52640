// The data files of a store are scripts, one call each: `meshPerfStore.<kind>(<content>);`. A page
// loads them with <script src>, which works from file:// where fetch() of a local file does not,
// and the CLI reads the same text by taking the call apart. Pure.

export const STORE_GLOBAL = 'meshPerfStore';

/** A compressed payload (base64 of gzip) with its format version; null when there is none. */
export function packedScript(kind: 'run' | 'timelines', format: number, base64: string | null): string {
  return `${STORE_GLOBAL}.${kind}(${format},${base64 === null ? 'null' : `"${base64}"`});\n`;
}

type JsonKind = 'index' | 'changePoints' | 'settled' | 'confirmations';
const JSON_KIND_NAME: Record<JsonKind, string> = {
  index: 'index shard',
  changePoints: 'change-points file',
  settled: 'settled-months file',
  confirmations: 'confirmations file',
};

/** A JSON document, one run per line for index shards so an append is a one-line diff. */
export function jsonScript(kind: JsonKind, json: string): string {
  return `${STORE_GLOBAL}.${kind}(${json});\n`;
}

export type ScriptParse<T> = { ok: true; value: T } | { ok: false; reason: string };

export function parsePackedScript(text: string, kind: 'run' | 'timelines'): ScriptParse<{ format: number; base64: string | null }> {
  const match = new RegExp(`^${STORE_GLOBAL}\\.${kind}\\((\\d+),(null|"([A-Za-z0-9+/]*={0,2})")\\);\\n?$`).exec(text);
  if (!match)
    return {
      ok: false,
      reason: `is not a mesh-perf ${kind === 'run' ? 'run' : 'timelines'} file (expected ${STORE_GLOBAL}.${kind}(<format>,"<base64>"))`,
    };
  return { ok: true, value: { format: Number(match[1]), base64: match[2] === 'null' ? null : match[3]! } };
}

/** The JSON document inside a data script, parsed. */
export function parseJsonScript(text: string, kind: JsonKind): ScriptParse<unknown> {
  const head = `${STORE_GLOBAL}.${kind}(`;
  const body = text.replace(/\n$/, '');
  if (!body.startsWith(head) || !body.endsWith(');'))
    return { ok: false, reason: `is not a mesh-perf ${JSON_KIND_NAME[kind]} (expected ${head}{…});)` };
  try {
    return { ok: true, value: JSON.parse(body.slice(head.length, -2)) };
  } catch (error) {
    return { ok: false, reason: `is not valid JSON inside ${head}…) (${(error as Error).message})` };
  }
}
