import { useEffect, useState } from "react";
import { FINAL_STATUSES, NOTIFICATION_PROGRESS_EVENT, type Notification } from "../../../shared/api/notifications.js";
import type { NotificationsApi } from "../api/notifications-api.js";

export type NotificationProgress =
  | { status: "loading" }
  | { status: "error"; error: unknown }
  | { status: "ready"; notification: Notification; live: boolean };

/**
 * A notification as it progresses: read once, then followed over the server's event stream (no page
 * reloads) until it is final. EventSource reconnects on its own after a dropped connection; the
 * server then starts with the notification as it is. `replace` shows a notification the page changed itself.
 */
export function useNotificationProgress(api: NotificationsApi, id: string): { progress: NotificationProgress; replace: (notification: Notification) => void; retry: () => void } {
  // Tagged with the notification it is about: moving to another notification shows "loading", not the last one.
  const [state, setState] = useState<{ id: string; progress: NotificationProgress } | null>(null);
  const [attempt, setAttempt] = useState(0);
  const setProgress = (progress: NotificationProgress) => setState({ id, progress });

  useEffect(() => {
    let current = true;
    let source: EventSource | undefined;
    api.getNotification(id).then(
      (notification) => {
        if (!current) return;
        const final = FINAL_STATUSES.includes(notification.status);
        setProgress({ status: "ready", notification, live: !final });
        if (final) return;
        source = new EventSource(api.eventsUrl(id));
        source.addEventListener(NOTIFICATION_PROGRESS_EVENT, (event) => {
          const next = JSON.parse((event as MessageEvent<string>).data) as Notification;
          const done = FINAL_STATUSES.includes(next.status);
          if (done) source?.close();
          if (current) setProgress({ status: "ready", notification: next, live: !done });
        });
      },
      (error: unknown) => current && setProgress({ status: "error", error }),
    );
    return () => {
      current = false;
      source?.close();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- setProgress only tags with `id`, a dependency already
  }, [api, id, attempt]);

  return {
    progress: state !== null && state.id === id ? state.progress : { status: "loading" },
    replace: (notification) => setProgress({ status: "ready", notification, live: !FINAL_STATUSES.includes(notification.status) }),
    retry: () => {
      setState(null);
      setAttempt((n) => n + 1);
    },
  };
}
