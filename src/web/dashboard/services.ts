import { createContext, useContext } from "react";
import type { DashboardApi } from "./api/dashboard-api.js";

/** What every dashboard page needs from outside React: built once by DashboardApp. */
export interface DashboardServices {
  api: DashboardApi;
  /** The zone dates are shown and schedules entered in (issue 4: default America/Sao_Paulo). */
  timeZone: string;
  /** The site's origin: links on it are allowed in notifications, and it names the site in the preview. */
  siteOrigin: string;
  now: () => number;
}

export const DashboardServicesContext = createContext<DashboardServices | null>(null);

export function useDashboardServices(): DashboardServices {
  const services = useContext(DashboardServicesContext);
  if (!services) throw new Error("useDashboardServices outside DashboardServicesContext");
  return services;
}
