import { createContext, useContext } from "react";
import type { PainelApi } from "./api/painel-api.js";

/** What every Painel page needs from outside React: built once by PainelApp. */
export interface PainelServices {
  api: PainelApi;
  /** The zone dates are shown and schedules entered in (issue 4: default America/Sao_Paulo). */
  timeZone: string;
  /** The site's origin: links on it are allowed in notifications, and it names the site in the preview. */
  siteOrigin: string;
  now: () => number;
}

export const PainelServicesContext = createContext<PainelServices | null>(null);

export function usePainelServices(): PainelServices {
  const services = useContext(PainelServicesContext);
  if (!services) throw new Error("usePainelServices outside PainelServicesContext");
  return services;
}
