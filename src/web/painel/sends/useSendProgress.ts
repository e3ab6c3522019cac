import { useEffect, useState } from "react";
import { FINAL_STATUSES, NOTIFICATION_PROGRESS_EVENT, type Notification } from "../../../shared/api/notifications.js";
import type { SendsApi } from "../api/sends-api.js";

export type SendProgress =
  | { status: "loading" }
  | { status: "error"; error: unknown }
  | { status: "ready"; send: Notification; live: boolean };

/**
 * A send as it progresses: read once, then followed over the server's event stream (no page
 * reloads) until it is final. EventSource reconnects on its own after a dropped connection; the
 * server then starts with the send as it is. `replace` shows a send the page changed itself.
 */
export function useSendProgress(api: SendsApi, id: string): { progress: SendProgress; replace: (send: Notification) => void; retry: () => void } {
  const [progress, setProgress] = useState<SendProgress>({ status: "loading" });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let current = true;
    let source: EventSource | undefined;
    setProgress({ status: "loading" });
    api.getNotification(id).then(
      (send) => {
        if (!current) return;
        const final = FINAL_STATUSES.includes(send.status);
        setProgress({ status: "ready", send, live: !final });
        if (final) return;
        source = new EventSource(api.eventsUrl(id));
        source.addEventListener(NOTIFICATION_PROGRESS_EVENT, (event) => {
          const next = JSON.parse((event as MessageEvent<string>).data) as Notification;
          const done = FINAL_STATUSES.includes(next.status);
          if (done) source?.close();
          if (current) setProgress({ status: "ready", send: next, live: !done });
        });
      },
      (error: unknown) => current && setProgress({ status: "error", error }),
    );
    return () => {
      current = false;
      source?.close();
    };
  }, [api, id, attempt]);

  return {
    progress,
    replace: (send) => setProgress({ status: "ready", send, live: !FINAL_STATUSES.includes(send.status) }),
    retry: () => setAttempt((n) => n + 1),
  };
}
