import { useEffect, useMemo, useState, type ReactNode } from "react";
import type { Organisation, OrganisationResponse } from "../../shared/api/organisation.js";
import { API_ROUTES } from "../../shared/api/routes.js";
import { createJsonRequest } from "../../client/index.js";
import { OrganisationContext } from "./organisation-context.js";

/**
 * Loads the organisation's identity once and gives it to every page (ColorModeProvider, below it,
 * draws the theme in its accent colour). Until it arrives (or if it cannot), Sino's own look: a missing identity never blocks a page.
 */
export function OrganisationProvider({ children, defaultTitle }: { children: ReactNode; defaultTitle: string }) {
  const [organisation, setOrganisation] = useState<Organisation | null>(null);
  useEffect(() => {
    let current = true;
    createJsonRequest({ toError: (failure) => new Error(`organisation: ${failure.kind}`) })
      .json<OrganisationResponse>("GET", API_ROUTES.organisation)
      .then(
        (answer) => {
          if (current) setOrganisation(answer.organisation);
        },
        () => undefined,
      );
    return () => {
      current = false;
    };
  }, []);
  useEffect(() => {
    document.title = organisation?.name ?? defaultTitle;
  }, [organisation?.name, defaultTitle]);
  const value = useMemo(() => ({ organisation, set: setOrganisation }), [organisation]);
  return (
    <OrganisationContext.Provider value={value}>
      {children}
    </OrganisationContext.Provider>
  );
}
