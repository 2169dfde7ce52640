// The JSON Schema of a zod schema as the repository publishes it (schema/*.schema.json): the input
// side (what a user writes, defaults optional), draft 2020-12. scripts/build.mjs writes the files;
// the generated configuration reference (scripts/docs-reference.mjs) is rendered from the same.
export function toJsonSchema(z, schema, id, title) {
  return {
    $id: id,
    title,
    ...z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }),
  };
}

export const CONFIG_SCHEMA_ID = 'https://mesh-perf.dev/schema/mesh-perf.schema.json';
export const CONFIG_SCHEMA_TITLE = 'mesh-perf.yaml';
