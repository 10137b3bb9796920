/** A zod schema as a shipped JSON Schema (draft 2020-12, the input side), with `$id` after `$schema`. */
import { z } from 'zod';

export function jsonSchema(schema: z.ZodType, id: string): Record<string, unknown> {
  const out = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }) as Record<string, unknown>;
  const { $schema, ...rest } = out;
  return { $schema, $id: id, ...rest };
}
