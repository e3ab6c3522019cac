import type { SinoMigration } from "./migration.js";
import { initial } from "./0001-initial.js";
import { delivery } from "./0002-delivery.js";
import { operators } from "./0003-operators.js";
import { sends } from "./0004-sends.js";
import { channels } from "./0005-channels.js";
import { sites } from "./0006-sites.js";
import { people } from "./0007-people.js";
import { segments } from "./0008-segments.js";
import { segmentKeys } from "./0013-segment-keys.js";

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
  ["0013-segment-keys", segmentKeys],
];
