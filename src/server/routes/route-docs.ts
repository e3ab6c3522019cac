import type { z } from "zod";
import type { Translator } from "../i18n.js";
import { OPERATOR_SECURITY, apiErrorSchema, type textResponse } from "../openapi.js";

type TextResponse = ReturnType<typeof textResponse>;

/**
 * What the OpenAPI document says of an operator route: its summary (and description) from the
 * catalog, its tag, and that it takes the Painel's session or an API token. One per route folder:
 * `const doc = operatorDocs(deps.translator, "api:tags.channels")`, then `...doc("api:routes.<name>")`.
 */
export function operatorDocs(translator: Translator, tag: string) {
  const { t } = translator;
  return (summary: string, description?: string) => ({
    summary: t(summary),
    ...(description === undefined ? {} : { description: t(description) }),
    tags: [t(tag)],
    security: OPERATOR_SECURITY,
  });
}

/** The same for the public subscriber API (the bell's routes): no security, the public tag. */
export function publicDocs(translator: Translator) {
  const { t } = translator;
  return (summary: string) => ({ security: [], summary: t(summary), tags: [t("api:tags.public")] });
}

/** A route's answers: the ones it declares, and the API error body for every 4xx. */
export function answers<const Answers extends Record<number, z.ZodType | TextResponse>>(ok: Answers): Answers & { "4xx": typeof apiErrorSchema } {
  return { ...ok, "4xx": apiErrorSchema };
}
