import { z } from "zod";

/**
 * A row's id in a path (`/channels/:id`): decimal digits, short enough to be a safe integer.
 * Anything else is the resource not being there, so it answers the route's own not-found code
 * rather than a validation error.
 */
export function idSchema<const Code extends string>(notFound: Code) {
  return z.string().regex(/^\d{1,15}$/, { error: notFound });
}

/** `{ id }` path parameters answering `notFound` for an id that cannot exist. */
export function idParamsOf<const Code extends string>(notFound: Code) {
  return z.object({ id: idSchema(notFound) });
}
