import type { Notification, NotificationsRepository } from "../store/notifications-repository.js";
import { DeliveryError } from "./delivery-error.js";
import { payloadFor, prepareSend, type SendInput } from "./send-input.js";

export interface SendService {
  /** Validates, then stores the send with its range jobs (one transaction). Workers take it from there. */
  createSend(input: SendInput): Promise<Notification>;
  getSend(id: number): Promise<Notification | undefined>;
  /** Throws `send_not_found`; a send already finished is returned unchanged. */
  cancelSend(id: number): Promise<Notification>;
}

export interface SendServiceDeps {
  readonly notifications: NotificationsRepository;
  readonly clock: () => number;
  readonly jobSize: number;
  /** Told about every send created or cancelled here (progress listeners, idle lanes). */
  readonly onChange: (send: Notification) => void;
}

export function createSendService(deps: SendServiceDeps): SendService {
  return {
    async createSend(input) {
      const prepared = prepareSend(input);
      const send = await deps.notifications.createWithJobs(prepared, {
        now: deps.clock(),
        jobSize: deps.jobSize,
        payloadFor: ({ id, tag }) => payloadFor(prepared, tag, String(id)),
      });
      deps.onChange(send);
      return send;
    },
    getSend(id) {
      return deps.notifications.findById(id);
    },
    async cancelSend(id) {
      const send = await deps.notifications.cancel(id, deps.clock());
      if (send === undefined) throw new DeliveryError("send_not_found", `no send ${id}`);
      deps.onChange(send);
      return send;
    },
  };
}
