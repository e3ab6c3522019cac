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
  // Tagged with the send it is about: moving to another send shows "loading", not the last one.
  const [state, setState] = useState<{ id: string; progress: SendProgress } | null>(null);
  const [attempt, setAttempt] = useState(0);
  const setProgress = (progress: SendProgress) => setState({ id, progress });

  useEffect(() => {
    let current = true;
    let source: EventSource | undefined;
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
    // eslint-disable-next-line react-hooks/exhaustive-deps -- setProgress only tags with `id`, a dependency already
  }, [api, id, attempt]);

  return {
    progress: state !== null && state.id === id ? state.progress : { status: "loading" },
    replace: (send) => setProgress({ status: "ready", send, live: !FINAL_STATUSES.includes(send.status) }),
    retry: () => {
      setState(null);
      setAttempt((n) => n + 1);
    },
  };
}
