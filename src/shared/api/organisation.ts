import { z } from "zod";
import { API_ROUTES } from "./routes.js";
import { text } from "./text.js";

/**
 * The organisation's identity: the name, logo and accent colour an admin sets (Painel →
 * Organização), shown on the public page, in the bell's panel (Sino's page and the embed), in the
 * web app manifest, and used as the notifications' icon when a send sets none. Unset, Sino shows
 * its own name, bell and blue.
 */
export const ORGANISATION_NAME_MAX_LENGTH = 60;
/** The logo as uploaded, decoded; a notification icon is shown at 192 px at most, so this is plenty. */
export const ORGANISATION_LOGO_MAX_BYTES = 256 * 1024;
/** Raster formats every browser shows as a notification icon and in a manifest (not SVG: Chrome ignores it as an icon, and it can carry script). */
export const ORGANISATION_LOGO_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;
export type OrganisationLogoType = (typeof ORGANISATION_LOGO_TYPES)[number];
/** `#rrggbb`, what `<input type="color">` gives. */
export const ACCENT_COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;
/** WCAG 2.1 AA for normal text: the accent is the colour of buttons' text and links on white. */
export const ACCENT_MIN_CONTRAST = 4.5;

/** WCAG relative luminance of `#rrggbb`. */
function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** WCAG contrast ratio of two `#rrggbb` colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/**
 * The logo's address: it changes with every change of the organisation (`?v=`), so browsers, the
 * manifest and notifications may cache it for long and still never show a replaced logo.
 */
export function organisationLogoUrl(publicUrl: string, updatedAt: number): string {
  return `${publicUrl.replace(/\/+$/, "")}${API_ROUTES.organisationLogo}?v=${String(updatedAt)}`;
}

/** GET /organisation (public) and the public configuration's `organisation`. */
export const organisationSchema = z.object({
  /** Null: unset (Sino's own name is shown). */
  name: z.string().nullable(),
  /** `#rrggbb` in lower case, or null (Sino's blue). */
  accentColor: z.string().nullable(),
  /** Absolute URL of the logo (changes with each upload), or null. */
  logoUrl: z.string().nullable(),
  /** ISO 8601 of the last change, or null when never set. */
  updatedAt: z.string().nullable(),
});
export type Organisation = z.infer<typeof organisationSchema>;
export const organisationResponseSchema = z.object({ organisation: organisationSchema });
export type OrganisationResponse = z.infer<typeof organisationResponseSchema>;

/**
 * PUT /organisation (admin) → 200 `{ organisation }`. Every field optional: what is absent stays,
 * null clears it. `logo.data` is the image's bytes in base64 (PNG, JPEG or WebP, at most 256 KB).
 */
export const updateOrganisationRequestSchema = z.strictObject({
  name: text({ error: "organisation_name_invalid" })
    .trim()
    .min(1, { error: "organisation_name_invalid" })
    .max(ORGANISATION_NAME_MAX_LENGTH, { error: "organisation_name_invalid" })
    .nullable()
    .optional(),
  accentColor: z.string({ error: "organisation_accent_invalid" }).regex(ACCENT_COLOR_PATTERN, { error: "organisation_accent_invalid" }).nullable().optional(),
  logo: z
    .strictObject({ data: z.string({ error: "organisation_logo_invalid" }).max(Math.ceil((ORGANISATION_LOGO_MAX_BYTES * 4) / 3) + 4, { error: "organisation_logo_too_large" }) })
    .nullable()
    .optional(),
});
export type UpdateOrganisationRequest = z.input<typeof updateOrganisationRequestSchema>;
