import type { SinoMigration } from "./migration.js";

import { initial } from "./0001-initial.js";
import { delivery } from "./0002-delivery.js";
import { operators } from "./0003-operators.js";
import { sends } from "./0004-sends.js";
import { channels } from "./0005-channels.js";
import { sites } from "./0006-sites.js";
import { people } from "./0007-people.js";
import { segments } from "./0008-segments.js";
import { accounts } from "./0009-accounts.js";
import { sendStates } from "./0010-send-states.js";
import { identity } from "./0011-identity.js";
import { templates } from "./0012-templates.js";
import { segmentKeys } from "./0013-segment-keys.js";
import { fullNotification } from "./0014-full-notification.js";
import { trustAndKeys } from "./0015-trust-and-keys.js";
import { deliveryGates } from "./0016-delivery-gates.js";
import { localTime } from "./0017-local-time.js";
import { engagement } from "./0018-engagement.js";
import { consent } from "./0019-consent.js";
import { audit } from "./0020-audit.js";
import { siteKeys } from "./0021-site-keys.js";
import { feeds } from "./0023-feeds.js";
import { eventCountsIndex } from "./0026-event-counts-index.js";

/**
 * Every migration, in order, listed in code rather than read from a folder (Kysely's
 * FileMigrationProvider), so the compiled server and the tests run exactly the same list.
 * Names are stored in the database: never rename one, only append.
 */
export const MIGRATIONS: ReadonlyArray<readonly [name: string, migration: SinoMigration]> = [
  ["0001-initial", initial],
  ["0002-delivery", delivery],
  ["0003-operators", operators],
  ["0004-sends", sends],
  ["0005-channels", channels],
  ["0006-sites", sites],
  ["0007-people", people],
  ["0008-segments", segments],
  ["0009-accounts", accounts],
  ["0010-send-states", sendStates],
  ["0011-identity", identity],
  ["0012-templates", templates],
  ["0013-segment-keys", segmentKeys],
  ["0014-full-notification", fullNotification],
  ["0015-trust-and-keys", trustAndKeys],
  ["0016-delivery-gates", deliveryGates],
  ["0017-local-time", localTime],
  ["0018-engagement", engagement],
  ["0019-consent", consent],
  ["0020-audit", audit],
  ["0021-site-keys", siteKeys],
  ["0023-feeds", feeds],
  ["0026-event-counts-index", eventCountsIndex],
];
