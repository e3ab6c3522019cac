import type { UpdateNotificationRequest } from "../../../shared/api/notification-edit.js";
import type {
  AudienceSize,
  CreateNotificationRequest,
  Notification,
  NotificationResponse,
  NotificationRetries,
  NotificationStatus,
  NotificationsPage,
  NoticeVisibility,
  Overview,
} from "../../../shared/api/notifications.js";
import { API_ROUTES, notificationCancelPath, notificationEventsPath, notificationNoticePath, notificationPath, notificationRetriesPath } from "../../../shared/api/routes.js";
import { createDashboardRequest, type DashboardRequestOptions } from "./dashboard-request.js";

export interface NotificationsFilter {
  query?: string | undefined;
  status?: NotificationStatus | undefined;
  /** From 1. */
  page?: number | undefined;
  pageSize?: number | undefined;
}

/** The notifications side of the operators' API: compose, Envio, Histórico, Visão geral. */
export interface NotificationsApi {
  /** POST /notifications: the notification as created (now, or scheduled). */
  createNotification(request: CreateNotificationRequest): Promise<NotificationResponse>;
  getNotification(id: string): Promise<Notification>;
  listNotifications(filter: NotificationsFilter): Promise<NotificationsPage>;
  cancelNotification(id: string): Promise<Notification>;
  /** PATCH /notifications/:id: edit or reschedule a send while it is scheduled (409 `send_not_scheduled` after). */
  updateNotification(id: string, request: UpdateNotificationRequest): Promise<Notification>;
  /** Shows a send on Avisos again, keeps it off (`hidden`) or takes it off for good (`removed`). */
  setNotice(id: string, notice: NoticeVisibility): Promise<Notification>;
  /** Why the send's pushes are retried, by push service, and when the next attempt is. */
  getRetries(id: string): Promise<NotificationRetries>;
  /** `site`: count one site's subscribers. */
  getOverview(site?: string): Promise<Overview>;
  /**
   * How many subscribers a send to these channels (none: everyone) made on these sites (none:
   * every site) would reach now, and the channels and sites by name.
   */
  getAudienceSize(narrowing: { channels: readonly string[]; sites: readonly string[]; users?: readonly string[] }): Promise<AudienceSize>;
  /** The progress stream's URL (Server-Sent Events), for an EventSource. */
  eventsUrl(id: string): string;
}

/** Same origin, session cookie, errors as `DashboardApiError` (like the dashboard's main client). */
export function createNotificationsApi(options: DashboardRequestOptions = {}): NotificationsApi {
  const baseUrl = options.baseUrl ?? "";
  const { json } = createDashboardRequest(options);

  return {
    createNotification: (body) => json("POST", API_ROUTES.notifications, body),
    async getNotification(id) {
      return (await json<{ notification: Notification }>("GET", notificationPath(id))).notification;
    },
    listNotifications(filter) {
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(filter)) if (value !== undefined && value !== "") params.set(key, String(value));
      const query = params.toString();
      return json("GET", `${API_ROUTES.notifications}${query === "" ? "" : `?${query}`}`);
    },
    async cancelNotification(id) {
      return (await json<{ notification: Notification }>("POST", notificationCancelPath(id))).notification;
    },
    async updateNotification(id, body) {
      return (await json<{ notification: Notification }>("PATCH", notificationPath(id), body)).notification;
    },
    async setNotice(id, notice) {
      const path = notificationNoticePath(id);
      const answer = notice === "removed" ? await json<{ notification: Notification }>("DELETE", path) : await json<{ notification: Notification }>("PATCH", path, { notice });
      return answer.notification;
    },
    getRetries: (id) => json("GET", notificationRetriesPath(id)),
    getOverview: (site) => json("GET", site === undefined ? API_ROUTES.overview : `${API_ROUTES.overview}?site=${encodeURIComponent(site)}`),
    getAudienceSize({ channels, sites, users = [] }) {
      const params = new URLSearchParams();
      if (channels.length > 0) params.set("channels", channels.join(","));
      if (sites.length > 0) params.set("sites", sites.join(","));
      // Repeated, not joined: a user id may hold a comma.
      for (const id of users) params.append("users", id);
      const query = params.toString();
      return json("GET", `${API_ROUTES.audience}${query === "" ? "" : `?${query}`}`);
    },
    eventsUrl: (id) => baseUrl + notificationEventsPath(id),
  };
}
