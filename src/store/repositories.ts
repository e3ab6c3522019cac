import { createApiTokensRepository, type ApiTokensRepository } from "./api-tokens-repository.js";
import { createChannelsRepository, type ChannelsRepository } from "./channels-repository.js";
import type { DatabaseHandle } from "./database.js";
import { createDeliveryQueueRepository, type DeliveryQueueRepository } from "./delivery-queue-repository.js";
import { createHygieneRepository, type HygieneRepository } from "./hygiene-repository.js";
import { createIdempotencyKeysRepository, type IdempotencyKeysRepository } from "./idempotency-keys-repository.js";
import { createLoginAttemptsRepository, type LoginAttemptsRepository } from "./login-attempts-repository.js";
import { createNoticesRepository, type NoticesRepository } from "./notices-repository.js";
import { createNotificationEventsRepository, type NotificationEventsRepository } from "./notification-events-repository.js";
import { createNotificationsRepository, type NotificationsRepository } from "./notifications-repository.js";
import { createOrganisationRepository, type OrganisationRepository } from "./organisation-repository.js";
import { createPeopleRepository, type PeopleRepository } from "./people-repository.js";
import { createRecipientsRepository, type RecipientsRepository } from "./recipients-repository.js";
import { createSavedSegmentsRepository, type SavedSegmentsRepository } from "./saved-segments-repository.js";
import { createSegmentsRepository, type SegmentsRepository } from "./segments-repository.js";
import { createNotificationHistoryRepository, type NotificationHistoryRepository } from "./notification-history-repository.js";
import { createSessionsRepository, type SessionsRepository } from "./sessions-repository.js";
import { createSettingsRepository, type SettingsRepository } from "./settings-repository.js";
import { createSitesRepository, type SitesRepository } from "./sites-repository.js";
import { createSiteKeysRepository, type SiteKeysRepository } from "./site-keys-repository.js";
import { createStatsRepository, type StatsRepository } from "./stats-repository.js";
import { createSubscribersRepository, type SubscribersRepository } from "./subscribers-repository.js";
import { createSubscriptionChannelsRepository, type SubscriptionChannelsRepository } from "./subscription-channels-repository.js";
import { createSubscriptionsRepository, type SubscriptionsRepository } from "./subscriptions-repository.js";
import { createTagsRepository, type TagsRepository } from "./tags-repository.js";
import { createTemplatesRepository, type TemplatesRepository } from "./templates-repository.js";
import { createUsersRepository, type UsersRepository } from "./users-repository.js";
import { createWebhooksRepository, type WebhooksRepository } from "./webhooks-repository.js";
import { createFeedsRepository, type FeedsRepository } from "./feeds-repository.js";
import { createRetryCausesRepository, type RetryCausesRepository } from "./retry-causes-repository.js";
import { createAuditRepository, type AuditRepository } from "./audit-repository.js";
import { createRetentionRepository, type RetentionRepository } from "./retention-repository.js";
import { createSubscriptionImportRepository, type SubscriptionImportRepository } from "./subscription-import-repository.js";
import { createPersonalDataStore, type PersonalDataStore } from "./personal-data.js";
import { createEngagementRepository, type EngagementRepository } from "./engagement-repository.js";
import { createDeliveryGatesRepository, type DeliveryGatesRepository } from "./delivery-gates-repository.js";

/** Every repository over one database. Built once where the process is wired, then passed down. */
export interface Repositories {
  readonly apiTokens: ApiTokensRepository;
  readonly channels: ChannelsRepository;
  readonly deliveryQueue: DeliveryQueueRepository;
  readonly hygiene: HygieneRepository;
  readonly idempotencyKeys: IdempotencyKeysRepository;
  readonly loginAttempts: LoginAttemptsRepository;
  readonly notices: NoticesRepository;
  readonly notificationEvents: NotificationEventsRepository;
  readonly notifications: NotificationsRepository;
  readonly organisation: OrganisationRepository;
  readonly people: PeopleRepository;
  readonly recipients: RecipientsRepository;
  readonly savedSegments: SavedSegmentsRepository;
  readonly segments: SegmentsRepository;
  readonly notificationHistory: NotificationHistoryRepository;
  readonly sessions: SessionsRepository;
  readonly settings: SettingsRepository;
  readonly sites: SitesRepository;
  /** VAPID key pairs per site (issue 20). */
  readonly siteKeys: SiteKeysRepository;
  readonly stats: StatsRepository;
  readonly subscribers: SubscribersRepository;
  readonly subscriptionChannels: SubscriptionChannelsRepository;
  readonly subscriptions: SubscriptionsRepository;
  readonly tags: TagsRepository;
  readonly templates: TemplatesRepository;
  readonly users: UsersRepository;
  readonly webhooks: WebhooksRepository;
  readonly retryCauses: RetryCausesRepository;
  readonly audit: AuditRepository;
  readonly retention: RetentionRepository;
  readonly subscriptionImport: SubscriptionImportRepository;
  readonly feeds: FeedsRepository;
  /** LGPD: export and erase everything about a subscription or a person (subscriber and operator alike). */
  readonly personalData: PersonalDataStore;
  readonly engagement: EngagementRepository;
  /** gates: frequency caps and sleeping subscribers. */
  readonly deliveryGates: DeliveryGatesRepository;
}

export function createRepositories(database: DatabaseHandle): Repositories {
  return Object.freeze({
    apiTokens: createApiTokensRepository(database),
    channels: createChannelsRepository(database),
    deliveryQueue: createDeliveryQueueRepository(database),
    hygiene: createHygieneRepository(database),
    idempotencyKeys: createIdempotencyKeysRepository(database),
    loginAttempts: createLoginAttemptsRepository(database),
    notices: createNoticesRepository(database),
    notificationEvents: createNotificationEventsRepository(database),
    notifications: createNotificationsRepository(database),
    organisation: createOrganisationRepository(database),
    people: createPeopleRepository(database),
    recipients: createRecipientsRepository(database),
    savedSegments: createSavedSegmentsRepository(database),
    segments: createSegmentsRepository(database),
    notificationHistory: createNotificationHistoryRepository(database),
    sessions: createSessionsRepository(database),
    settings: createSettingsRepository(database),
    sites: createSitesRepository(database),
    siteKeys: createSiteKeysRepository(database),
    stats: createStatsRepository(database),
    subscribers: createSubscribersRepository(database),
    subscriptionChannels: createSubscriptionChannelsRepository(database),
    subscriptions: createSubscriptionsRepository(database),
    tags: createTagsRepository(database),
    templates: createTemplatesRepository(database),
    users: createUsersRepository(database),
    webhooks: createWebhooksRepository(database),
    retryCauses: createRetryCausesRepository(database),
    audit: createAuditRepository(database),
    retention: createRetentionRepository(database),
    subscriptionImport: createSubscriptionImportRepository(database),
    feeds: createFeedsRepository(database),
    personalData: createPersonalDataStore(database),
    engagement: createEngagementRepository(database),
    deliveryGates: createDeliveryGatesRepository(database),
  });
}
