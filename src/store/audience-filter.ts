import type { ExpressionBuilder } from "kysely";
import type { Schema } from "./schema.js";

/**
 * The audience filters of the range queries, kept in one place so the count taken when a notification is
 * stored (`queued`) and the rows the workers walk can never disagree.
 */

/** Subscriptions in any of `channelIds` (EXISTS on the (subscription_id, channel_id) primary key). */
export function inChannels(channelIds: readonly number[]) {
  return (eb: ExpressionBuilder<Schema, "subscriptions">) =>
    eb.exists(
      eb
        .selectFrom("subscription_channels")
        .select("subscription_channels.subscription_id")
        .whereRef("subscription_channels.subscription_id", "=", "subscriptions.id")
        .where("subscription_channels.channel_id", "in", channelIds.length === 0 ? [-1] : [...channelIds]),
    );
}

/** Subscriptions made on any of `siteIds`. */
export function inSites(siteIds: readonly number[]) {
  return (eb: ExpressionBuilder<Schema, "subscriptions">) => eb("subscriptions.site_id", "in", siteIds.length === 0 ? [-1] : [...siteIds]);
}

/** Subscriptions identified as any of `personIds` (the subscriptions_person index). */
export function inPeople(personIds: readonly string[]) {
  return (eb: ExpressionBuilder<Schema, "subscriptions">) => eb("subscriptions.person_id", "in", personIds.length === 0 ? [""] : [...personIds]);
}

/**
 * Subscriptions a stored send targets: all of them when the notification has no channel rows (everyone;
 * an "endpoint" notification's range is its one subscription), else those in any of its channels; and,
 * for a `people` send, only its people's. Each first EXISTS does not depend on the row, so both
 * databases evaluate it once per query.
 */
export function inNotificationAudience(notificationId: number) {
  return (eb: ExpressionBuilder<Schema, "subscriptions">) =>
    eb.and([inNotificationChannels(notificationId)(eb), inNotificationSites(notificationId)(eb), inNotificationPeopleOrEveryone(notificationId)(eb)]);
}

/**
 * A started `segment` notification's subscriptions with ids in (after, upTo]: its notification_targets rows,
 * a range of their primary key, taken when it started. Used instead of inNotificationAudience (the rows
 * already hold its sites) by the workers' range query and by an expired job alike.
 */
export function inNotificationTargets(notificationId: number, after: number, upTo: number) {
  return (eb: ExpressionBuilder<Schema, "subscriptions">) =>
    eb(
      "subscriptions.id",
      "in",
      eb
        .selectFrom("notification_targets")
        .select("notification_targets.subscription_id")
        .where("notification_targets.notification_id", "=", notificationId)
        .where("notification_targets.subscription_id", ">", after)
        .where("notification_targets.subscription_id", "<=", upTo),
    );
}

/** The subscriptions of a `people` notification's people: an EXISTS on the (notification_id, person_id) primary key. */
export function inNotificationPeople(notificationId: number) {
  return (eb: ExpressionBuilder<Schema, "subscriptions">) =>
    eb.exists(
      eb
        .selectFrom("notification_people")
        .select("notification_people.person_id")
        .whereRef("notification_people.person_id", "=", "subscriptions.person_id")
        .where("notification_people.notification_id", "=", notificationId),
    );
}

function inNotificationPeopleOrEveryone(notificationId: number) {
  return (eb: ExpressionBuilder<Schema, "subscriptions">) =>
    eb.or([
      eb.not(eb.exists(eb.selectFrom("notification_people").select("person_id").where("notification_people.notification_id", "=", notificationId))),
      inNotificationPeople(notificationId)(eb),
    ]);
}

/**
 * Narrowed to sites: every site when the notification has no site rows, else the subscriptions
 * made on one of them. Like the channels' test, the first EXISTS does not depend on the row.
 */
export function inNotificationSites(notificationId: number) {
  return (eb: ExpressionBuilder<Schema, "subscriptions">) =>
    eb.or([
      eb.not(eb.exists(eb.selectFrom("notification_sites").select("site_id").where("notification_sites.notification_id", "=", notificationId))),
      eb.exists(
        eb
          .selectFrom("notification_sites")
          .select("notification_sites.site_id")
          .whereRef("notification_sites.site_id", "=", "subscriptions.site_id")
          .where("notification_sites.notification_id", "=", notificationId),
      ),
    ]);
}

function inNotificationChannels(notificationId: number) {
  return (eb: ExpressionBuilder<Schema, "subscriptions">) =>
    eb.or([
      eb.not(eb.exists(eb.selectFrom("notification_channels").select("channel_id").where("notification_channels.notification_id", "=", notificationId))),
      eb.exists(
        eb
          .selectFrom("subscription_channels")
          .innerJoin("notification_channels", "notification_channels.channel_id", "subscription_channels.channel_id")
          .select("subscription_channels.subscription_id")
          .whereRef("subscription_channels.subscription_id", "=", "subscriptions.id")
          .where("notification_channels.notification_id", "=", notificationId),
      ),
    ]);
}

/**
 * Subscriptions a notification may go to at all: not flagged for a VAPID key mismatch. A push service
 * that answered 403 (RFC 8292 §4.2: the subscription was made with another application server
 * key) will answer it again to every notification, so none is made until the browser registers again
 * (which clears the flag). Applied where the notification's count is taken and where the workers walk
 * its range alike, so the two never disagree.
 */
export function notFlagged() {
  return (eb: ExpressionBuilder<Schema, "subscriptions">) => eb("subscriptions.vapid_mismatch_at", "is", null);
}
