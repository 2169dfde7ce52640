// Walks the config's JSON Schema (generated from the zod schema, as scripts/build.mjs does) leaf by
// leaf, so tests that must cover every field grow with the schema: the bounds test and the
// generated bad-input suite.
import { z } from 'zod';
import { configSchema } from '../../src/config/schema.ts';

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  maxLength?: number;
  minLength?: number;
  maxItems?: number;
  minItems?: number;
  maxProperties?: number;
  maximum?: number;
  exclusiveMaximum?: number;
  minimum?: number;
  exclusiveMinimum?: number;
  pattern?: string;
  default?: unknown;
}

export const CONFIG_JSON_SCHEMA = z.toJSONSchema(configSchema, {
  io: 'input',
  unrepresentable: 'any',
  target: 'draft-2020-12',
}) as JsonSchema;

/** One node of the schema with its path: object keys, `[0]` for list items, `*` for a map's entries. */
export interface SchemaNode {
  path: (string | number)[];
  schema: JsonSchema;
}

/** Every node, depth first; a union (load: one profile or a list) yields each of its variants at the same path. */
export function schemaNodes(root: JsonSchema = CONFIG_JSON_SCHEMA): SchemaNode[] {
  const out: SchemaNode[] = [];
  const visit = (schema: JsonSchema, path: (string | number)[]) => {
    const variants = schema.anyOf ?? schema.oneOf;
    if (variants) {
      for (const variant of variants) visit({ ...variant, ...(schema.default !== undefined ? { default: schema.default } : {}) }, path);
      return;
    }
    out.push({ path, schema });
    for (const [key, child] of Object.entries(schema.properties ?? {})) visit(child, [...path, key]);
    if (schema.items) visit(schema.items, [...path, 0]);
    if (typeof schema.additionalProperties === 'object') visit(schema.additionalProperties, [...path, '*']);
  };
  visit(root, []);
  return out;
}

export const typeOf = (schema: JsonSchema): string | undefined =>
  Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
