import { CHANNEL_DESCRIPTION_MAX_LENGTH, CHANNEL_NAME_MAX_LENGTH, CHANNEL_SLUG_MAX_LENGTH, RESERVED_CHANNEL_SLUG } from "../../../shared/api/channels.js";

export interface ChannelFormValues {
  slug: string;
  name: string;
  description: string;
  isDefault: boolean;
}

export type ChannelFormErrors = Partial<Record<"slug" | "name", string>>;

/** The same rule as the server's schema, checked before sending so the error shows at once. */
const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;

/** Catalog keys of what is wrong, per field (the server checks again and has the last word). */
export function validateChannelForm(values: ChannelFormValues, creating: boolean): ChannelFormErrors {
  const errors: ChannelFormErrors = {};
  if (creating) {
    if (values.slug === RESERVED_CHANNEL_SLUG) errors.slug = "channels.errors.slugReserved";
    else if (!SLUG.test(values.slug) || values.slug.length > CHANNEL_SLUG_MAX_LENGTH) errors.slug = "channels.errors.slugInvalid";
  }
  if (values.name.trim() === "") errors.name = "channels.errors.nameRequired";
  return errors;
}

/** A slug suggested from the name while the operator has not typed one: "Obras na Rua" → "obras-na-rua". */
export function suggestSlug(name: string): string {
  return name
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, CHANNEL_SLUG_MAX_LENGTH)
    .replace(/-+$/, "");
}

export const CHANNEL_FIELD_LIMITS = { name: CHANNEL_NAME_MAX_LENGTH, description: CHANNEL_DESCRIPTION_MAX_LENGTH, slug: CHANNEL_SLUG_MAX_LENGTH };
