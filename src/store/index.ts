export { createDatabase, dialectOf, sqlitePath, DEFAULT_DATABASE_URL } from "./database.js";
export type { Database, DatabaseOptions, Dialect } from "./database.js";
export { migrateToLatest, MigrationError } from "./migrate.js";
export type { Schema } from "./schema.js";
export { createSubscriptionsRepository } from "./subscriptions-repository.js";
export type {
  Subscription,
  SubscriptionsRepository,
  RegisterSubscriptionInput,
  RegisterResult,
  RemoveResult,
} from "./subscriptions-repository.js";
export { createSettingsRepository } from "./settings-repository.js";
export type { SettingsRepository } from "./settings-repository.js";
export { ensureVapidKeys, VAPID_KEYS_SETTING } from "./vapid-keys-store.js";
