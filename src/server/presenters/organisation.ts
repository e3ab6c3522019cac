import { organisationLogoUrl, type Organisation } from "../../shared/api/organisation.js";
import type { StoredOrganisation } from "../../store/organisation-repository.js";

export function presentOrganisation(stored: StoredOrganisation, publicUrl: string): Organisation {
  return {
    name: stored.name,
    accentColor: stored.accentColor,
    logoUrl: stored.logo === null || stored.updatedAt === null ? null : organisationLogoUrl(publicUrl, stored.updatedAt),
    updatedAt: stored.updatedAt === null ? null : new Date(stored.updatedAt).toISOString(),
  };
}
