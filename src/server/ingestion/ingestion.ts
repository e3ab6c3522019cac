import type { Dialect } from "../../store/database.js";
import type { NotificationEventsRepository, RecordEventResult, TimedNotificationEvent } from "../../store/notification-events-repository.js";
import type { ChannelChoice, ReplaceChannelsResult, SubscriptionChannelsRepository } from "../../store/subscription-channels-repository.js";
import type {
  PersonChangeOutcome,
  RegisterResult,
  RemoveResult,
  SubscriptionsRepository,
  TimedPersonChange,
  TimedRegistration,
  TimedRemoval,
} from "../../store/subscriptions-repository.js";
import type { IdentityRefusal } from "../people/person-identity.js";
import { createGroupCommit, type GroupCommit, type GroupCommitStats } from "./group-commit.js";

/**
 * The public write paths a browser hits at the fan-out's rate, each group-committed (see
 * group-commit.ts): service-worker reports, registrations, unsubscribes, channel choices and person
 * changes (identify, forget). One per process,
 * built in main and closed before the database: `close()` drains what was taken.
 */
export interface Ingestion {
  readonly events: GroupCommit<TimedNotificationEvent, RecordEventResult>;
  readonly registrations: GroupCommit<TimedRegistration<IdentityRefusal>, RegisterResult<IdentityRefusal>>;
  readonly removals: GroupCommit<TimedRemoval, RemoveResult>;
  /** Channel choices (PUT /subscriptions/channels). */
  readonly preferences: GroupCommit<ChannelChoice, ReplaceChannelsResult>;
  /** Identifications and forgets (PUT and DELETE /subscriptions/user). */
  readonly people: GroupCommit<TimedPersonChange<IdentityRefusal>, PersonChangeOutcome<IdentityRefusal>>;
  stats(): Record<"events" | "registrations" | "removals" | "preferences" | "people", GroupCommitStats>;
  /** Refuses new writes (503) and resolves once everything taken has committed. */
  close(): Promise<void>;
}

export interface IngestionOptions {
  readonly events: Pick<NotificationEventsRepository, "recordBatch">;
  readonly subscriptions: Pick<SubscriptionsRepository, "registerBatch" | "removeBatch" | "changePeopleBatch">;
  readonly subscriptionChannels: Pick<SubscriptionChannelsRepository, "replaceBatch">;
  readonly dialect: Dialect;
  /** SINO_WRITE_QUEUE: most items each path holds waiting. */
  readonly capacity: number;
}

/**
 * Items per transaction. Reports are set-based (a constant number of statements per batch, 4
 * parameters a row, far under both databases' limits); registrations run a few statements each,
 * so a smaller batch keeps one transaction (SQLite's single writer lock) short.
 */
const EVENTS_PER_BATCH = 512;
const REGISTRATIONS_PER_BATCH = 128;

/**
 * Transactions at once per path. SQLite has one writer and one connection: 1. PostgreSQL commits
 * in parallel: a second batch filling while one waits for its WAL flush keeps the writes flowing.
 * Reports are a few statements per batch, so two suffice; a registration is several round trips
 * of its own inside the batch, so registrations get a few more (still under the pool's 10, which
 * the Painel and the delivery lanes share).
 */
const POSTGRES_CONCURRENCY = { events: 2, registrations: 4 } as const;

function concurrencyOf(dialect: Dialect, path: keyof typeof POSTGRES_CONCURRENCY): number {
  return dialect === "postgres" ? POSTGRES_CONCURRENCY[path] : 1;
}

export function createIngestion(options: IngestionOptions): Ingestion {
  const capacity = options.capacity;
  // metrics: ingestion batches and their sizes (onBatch), queue depth (stats().pending), 503s refused.
  const events = createGroupCommit({ write: (items: readonly TimedNotificationEvent[]) => options.events.recordBatch(items), maxBatch: EVENTS_PER_BATCH, capacity, concurrency: concurrencyOf(options.dialect, "events") });
  const registrations = createGroupCommit({
    write: (items: ReadonlyArray<TimedRegistration<IdentityRefusal>>) => options.subscriptions.registerBatch(items),
    maxBatch: REGISTRATIONS_PER_BATCH,
    capacity,
    concurrency: concurrencyOf(options.dialect, "registrations"),
  });
  const removals = createGroupCommit({ write: (items: readonly TimedRemoval[]) => options.subscriptions.removeBatch(items), maxBatch: REGISTRATIONS_PER_BATCH, capacity, concurrency: concurrencyOf(options.dialect, "registrations") });
  const preferences = createGroupCommit({
    write: (items: readonly ChannelChoice[]) => options.subscriptionChannels.replaceBatch(items),
    maxBatch: REGISTRATIONS_PER_BATCH,
    capacity,
    concurrency: concurrencyOf(options.dialect, "registrations"),
  });
  const people = createGroupCommit({
    write: (items: ReadonlyArray<TimedPersonChange<IdentityRefusal>>) => options.subscriptions.changePeopleBatch(items),
    maxBatch: REGISTRATIONS_PER_BATCH,
    capacity,
    concurrency: concurrencyOf(options.dialect, "registrations"),
  });
  return {
    events,
    registrations,
    removals,
    preferences,
    people,
    stats: () => ({ events: events.stats(), registrations: registrations.stats(), removals: removals.stats(), preferences: preferences.stats(), people: people.stats() }),
    close: async () => {
      await Promise.all([events.close(), registrations.close(), removals.close(), preferences.close(), people.close()]);
    },
  };
}
