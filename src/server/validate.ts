import type { z } from "zod";
import { apiError } from "./errors.js";

/**
 * Parses a request part with its zod schema; a mismatch becomes `validation_failed` naming the
 * first offending field (`keys.auth`), so the pt-BR message can point at it.
 */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const path = result.error.issues[0]?.path ?? [];
  throw apiError("validation_failed", path.length > 0 ? path.map(String).join(".") : undefined);
}
