import { z } from "zod";
import { multiLineText, text } from "./text.js";

/**
 * The consent the bell sends with a registration (LGPD Art. 8): where the visitor said yes (the
 * bell's button or the soft prompt), the exact text shown, and the version of the catalogue it came
 * from (`consentCatalogueVersion()` in src/client). The page's origin is the request's own.
 */
export const consentInputSchema = z.strictObject({
  source: z.enum(["bell", "soft_prompt"], { error: "consent_invalid" }),
  text: multiLineText({ error: "consent_invalid" }).min(1, { error: "consent_invalid" }).max(2_000, { error: "consent_invalid" }),
  version: text({ error: "consent_invalid" }).min(1, { error: "consent_invalid" }).max(64, { error: "consent_invalid" }),
});
export type ConsentInput = z.infer<typeof consentInputSchema>;
