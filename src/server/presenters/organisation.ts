import type { Organisation } from "../../shared/api/organisation.js";
import { API_ROUTES } from "../../shared/api/routes.js";
import type { StoredOrganisation } from "../../store/organisation-repository.js";

/**
 * The logo's address changes with every change of the organisation (`?v=`), so browsers, the
 * manifest and notifications may cache it for long and still never show a replaced logo.
 */
export function presentOrganisation(stored: StoredOrganisation, publicUrl: string): Organisation {
  const base = publicUrl.replace(/\/+$/, "");
  return {
    name: stored.name,
    accentColor: stored.accentColor,
    logoUrl: stored.logo === null ? null : `${base}${API_ROUTES.organisationLogo}?v=${String(stored.updatedAt)}`,
    updatedAt: stored.updatedAt === null ? null : new Date(stored.updatedAt).toISOString(),
  };
}
