import { createContext, useContext } from "react";
import { createAudienceApi } from "./api/audience-api.js";
import type { AudienceApi } from "./api/audience-api.js";
import { createDashboardApi } from "./api/dashboard-api.js";
import type { DashboardApi } from "./api/dashboard-api.js";
import { createNotificationsApi } from "./api/notifications-api.js";
import { createPeopleApi } from "./api/people-api.js";
import type { PeopleApi } from "./api/people-api.js";
import { createOrganisationApi } from "./api/organisation-api.js";
import type { OrganisationApi } from "./api/organisation-api.js";
import { createSitesApi } from "./api/sites-api.js";
import type { SitesApi } from "./api/sites-api.js";
import type { NotificationsApi } from "./api/notifications-api.js";
import { createSegmentsApi } from "./api/segments-api.js";
import type { SegmentsApi } from "./api/segments-api.js";
import { createTemplatesApi } from "./api/templates-api.js";
import type { TemplatesApi } from "./api/templates-api.js";
import { createWebhooksApi } from "./api/webhooks-api.js";
import type { WebhooksApi } from "./api/webhooks-api.js";
import { createFeedsApi } from "./api/feeds-api.js";
import type { FeedsApi } from "./api/feeds-api.js";

/**
 * What every dashboard page needs from outside React, built once by DashboardApp (the dashboard's
 * entry, as main.tsx is the public pages'): pages take their API clients from here, never build one.
 */
export interface DashboardServices {
  /** Set-up, session, users and tokens. */
  api: DashboardApi;
  /** Compose, Envio, Histórico and Visão geral's recent notifications. */
  notifications: NotificationsApi;
  /** Channels, subscribers and the charts. */
  audience: AudienceApi;
  /** People (the host app's users) and each send's recipients. */
  people: PeopleApi;
  /** Sites: the origins that may show the bell. */
  sites: SitesApi;
  /** Outbound webhooks and their deliveries (admin). */
  webhooks: WebhooksApi;
  /** Segments: the live count, explain, and saved segments. */
  segments: SegmentsApi;
  /** Templates: saved send contents, used in compose. */
  templates: TemplatesApi;
  /** SINO_TIME_ZONE (from the public config): the zone dates are shown and schedules entered in. */
  timeZone: string;
  /** The site's origin: links on it are allowed in notifications, and it names the site in the preview. */
  siteOrigin: string;
  now: () => number;
  /** The organisation's identity (Painel → Organização). */
  organisation: OrganisationApi;
  /** RSS/Atom feeds turned into sends, and their drafts (admin). */
  feeds: FeedsApi;
}

/** The clients share the page's origin and session cookie; `siteOrigin` is that origin. */
export function createDashboardServices(options: { siteOrigin: string; timeZone: string }): DashboardServices {
  return {
    api: createDashboardApi(),
    notifications: createNotificationsApi(),
    audience: createAudienceApi(),
    sites: createSitesApi(),
    people: createPeopleApi(),
    webhooks: createWebhooksApi(),
    feeds: createFeedsApi(),
    segments: createSegmentsApi(),
    templates: createTemplatesApi(),
    timeZone: options.timeZone,
    siteOrigin: options.siteOrigin,
    now: () => Date.now(),
    organisation: createOrganisationApi(),
  };
}

export const DashboardServicesContext = createContext<DashboardServices | null>(null);

export function useDashboardServices(): DashboardServices {
  const services = useContext(DashboardServicesContext);
  if (!services) throw new Error("useDashboardServices outside DashboardServicesContext");
  return services;
}
