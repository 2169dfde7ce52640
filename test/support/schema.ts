// Validates a results.json against the published JSON Schema's source (the zod schema the
// build generates schema/results.schema.json from).
import { resultsSchema } from '../../src/results/schema.ts';

export function schemaProblems(results: unknown): string[] {
  const parsed = resultsSchema.safeParse(results);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}
