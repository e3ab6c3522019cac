import type { DeliveryEngine } from "../../../delivery/engine.js";
import type { Repositories } from "../../../store/repositories.js";
import type { Authenticator } from "../../auth/authenticator.js";
import type { Translator } from "../../i18n.js";
import type { EngagementRules } from "../../../store/delivery-gates-repository.js";

/** What the sends routes need; built once in `buildApp`. */
export interface NotificationRoutesDeps {
  /** createNotification / getNotification / cancelNotification / rescheduleNotification / onProgress: the engine's public API only. */
  readonly engine: Pick<DeliveryEngine, "createNotification" | "getNotification" | "cancelNotification" | "rescheduleNotification" | "onProgress">;
  readonly repositories: Pick<Repositories, "notificationHistory" | "subscriptions" | "channels" | "notificationEvents" | "sites" | "notifications" | "savedSegments" | "retryCauses" | "deliveryGates">;
  readonly authenticator: Authenticator;
  readonly translator: Translator;
  readonly publicUrl: string;
  readonly now: () => number;
  /** SINO_PUBLISH_RATE_LIMIT: creates per minute per token (or operator). */
  readonly publishRateLimit: number;
  /** How often a progress stream reads the row (other processes' progress); default 1 s. */
  readonly progressPollMs?: number;
  /** gates: SINO_FREQUENCY_CAP / SINO_SLEEPING_DAYS, for GET /audience's `limited` and `asleep`; absent: both 0. */
  readonly engagement?: EngagementRules;
}
