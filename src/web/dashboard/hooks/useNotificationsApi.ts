import { useMemo } from "react";
import { createNotificationsApi } from "../api/notifications-api.js";
import type { NotificationsApi } from "../api/notifications-api.js";

/** The notifications client, beside the dashboard's main one (same origin and cookie, built once per mount). */
export function useNotificationsApi(): NotificationsApi {
  return useMemo(() => createNotificationsApi(), []);
}
