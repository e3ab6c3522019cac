import type { useTranslation } from "react-i18next";
import { NOTIFICATION_LIMITS } from "../../../shared/api/notifications.js";
import type { AudienceSize } from "../../../shared/api/notifications.js";
import { PAYLOAD_LIMITS } from "../../../shared/api/notification-payload.js";
import { isValidUserId } from "../../../shared/api/user-id.js";
import { formatNumber } from "../format.js";
import { COMPOSE_LIMITS, TTL_CHOICES, parseData } from "./compose-form.js";
import type { ComposeField, ComposeValues } from "./compose-form.js";

export type Translate = ReturnType<typeof useTranslation>["t"];

/** The numbers a field's message names: its limit, and the data's size. */
export function errorParams(field: ComposeField, values: ComposeValues): Record<string, string | number> {
  if (field === "title" || field === "body" || field === "url") return { max: COMPOSE_LIMITS[field] };
  if (field.startsWith("actions.")) return { max: PAYLOAD_LIMITS.actionLabel };
  if (field === "appBadge") return { max: formatNumber(PAYLOAD_LIMITS.appBadge) };
  if (field === "data") {
    const data = parseData(values.data);
    return { max: formatNumber(PAYLOAD_LIMITS.dataBytes), bytes: data !== null && "bytes" in data ? formatNumber(data.bytes) : 0 };
  }
  return {};
}

/** The form's TTLs, plus one a template or a send made through the API set (e.g. 10 minutes). */
export function ttlChoices(current: number): number[] {
  const choices: number[] = [...TTL_CHOICES];
  return choices.includes(current) ? choices : [...choices, current].sort((a, b) => a - b);
}

/** "10 minutos", "2 horas", "90 segundos": a TTL the form does not offer by name. */
export function ttlText(t: Translate, seconds: number): string {
  if (seconds > 0 && seconds % 3_600 === 0) return t("templates.ttl.hours", { count: seconds / 3_600 });
  if (seconds > 0 && seconds % 60 === 0) return t("templates.ttl.minutes", { count: seconds / 60 });
  return t("templates.ttl.seconds", { count: seconds });
}

/** "Obras e Eventos": names as a pt-BR list. */
function listOf(names: readonly string[]): string {
  return new Intl.ListFormat("pt-BR", { type: "conjunction" }).format(names);
}

const channelNames = (size: AudienceSize) => listOf(size.channels.map((channel) => channel.name));
const siteNames = (size: AudienceSize) => listOf(size.sites.map((site) => site.origin));

/** Why the typed ids cannot be sent to, or undefined. */
export function peopleProblem(t: Translate, people: readonly string[]): string | undefined {
  if (people.length === 0) return t("dashboard.compose.people.required");
  if (people.length > NOTIFICATION_LIMITS.users) return t("dashboard.compose.people.tooMany", { max: formatNumber(NOTIFICATION_LIMITS.users) });
  // `boolean`, not an inferred `id is never`: isValidUserId is a type guard on unknown input.
  const bad = people.find((id): boolean => !isValidUserId(id));
  return bad === undefined ? undefined : t("dashboard.compose.people.invalid", { id: bad.slice(0, 40) });
}

export function confirmTitle(t: Translate, when: ComposeValues["when"], size: AudienceSize | null): string {
  if (when === "later") return t("dashboard.compose.confirm.laterTitle");
  if (size === null) return t("dashboard.compose.confirm.nowTitle");
  if (size.people !== undefined) return t("dashboard.compose.confirm.nowTitlePeople", { count: size.people, formatted: formatNumber(size.people) });
  if (size.channels.length > 0) return t("dashboard.compose.confirm.nowTitleChannels", { count: size.channels.length, channels: channelNames(size) });
  if (size.sites.length > 0) return t("dashboard.compose.confirm.nowTitleSites", { count: size.sites.length, sites: siteNames(size) });
  return t("dashboard.compose.confirm.nowTitle");
}

/**
 * "todos os assinantes (1.250 assinantes)", "os canais Obras e Eventos (3 assinantes)", and with
 * sites chosen "quem assina o canal Obras no site https://www.exemplo.com.br (2 assinantes)".
 */
export function audienceText(t: Translate, size: AudienceSize | null): string {
  if (size === null) return "";
  if (size.people !== undefined) {
    const people = t("dashboard.compose.confirm.people", { count: size.people, formatted: formatNumber(size.people) });
    if (size.recipients < 0) return t("dashboard.compose.confirm.peopleUncounted", { people });
    const subscriptions = t("dashboard.compose.confirm.subscriptions", { count: size.recipients, formatted: formatNumber(size.recipients) });
    return t("dashboard.compose.confirm.peopleWithSubscriptions", { people, subscriptions });
  }
  const recipients = t("dashboard.compose.confirm.recipients", { count: size.recipients, formatted: formatNumber(size.recipients) });
  if (size.sites.length > 0) {
    const sites = siteNames(size);
    if (size.channels.length === 0) return t("dashboard.compose.confirm.everyoneOnSites", { count: size.sites.length, sites, recipients });
    const channels = t("dashboard.compose.confirm.channelList", { count: size.channels.length, channels: channelNames(size) });
    return t("dashboard.compose.confirm.channelsOnSites", { count: size.sites.length, channels, sites, recipients });
  }
  if (size.channels.length === 0) return t("dashboard.compose.confirm.everyone", { recipients });
  return t("dashboard.compose.confirm.channels", { count: size.channels.length, channels: channelNames(size), recipients });
}
