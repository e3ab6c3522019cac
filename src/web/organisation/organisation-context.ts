import { createContext, useContext } from "react";
import type { Organisation } from "../../shared/api/organisation.js";

export interface OrganisationState {
  /** Null until loaded (and if it cannot be): Sino's own name, bell and colour are shown meanwhile. */
  readonly organisation: Organisation | null;
  /** Replaces it (after an admin saved a change), so the whole app shows it at once. */
  readonly set: (organisation: Organisation) => void;
}

export const OrganisationContext = createContext<OrganisationState>({ organisation: null, set: () => undefined });

/** The organisation's identity (Painel → Organização), for the public pages and the Painel alike. */
export function useOrganisation(): OrganisationState {
  return useContext(OrganisationContext);
}

/**
 * The logo's address as Sino's own pages load it: same-origin (path and `?v=`), since the page is
 * served by the Sino that serves the logo, even when it is reached by another name than
 * SINO_PUBLIC_URL (an internal address, a test port). Other sites use the absolute `logoUrl`.
 */
export function ownLogoPath(logoUrl: string | null): string | null {
  if (logoUrl === null) return null;
  const url = new URL(logoUrl, window.location.origin);
  return url.pathname + url.search;
}
