import type { Notification, NotificationCategory } from "../../../shared/api/notifications.js";
import type { CreateTemplateRequest, Template, TemplateAudience } from "../../../shared/api/templates.js";
import { epochToWallTime } from "../../../shared/time/zoned-time.js";
import { EMPTY_SEGMENT_DRAFT } from "../segments/segment-editor.js";
import { initialComposeValues, toNotificationRequest, type ComposeValues } from "./compose-form.js";
import type { SegmentChoice } from "./segment-choice.js";

export type ComposeTarget = "subscribers" | "people" | "segment";

/**
 * Everything the compose form holds, as one value: what a template, a past send (to duplicate) or
 * a scheduled send (to edit) fills it with.
 */
export interface ComposeDraft {
  values: ComposeValues;
  target: ComposeTarget;
  /** Channel slugs; none = everyone. */
  channels: string[];
  sites: string[];
  segmentChoice: SegmentChoice;
  category: NotificationCategory;
  collapseKey: string;
  /**
   * A send to people: how many. Their ids are never shown (a send may name 10,000), so a copy
   * asks for them again, and an edit keeps them unless new ones are typed.
   */
  people: number | null;
  /**
   * gates: a re-engagement send, and an admin's exempt one. Only an edit keeps them: a copy is a
   * new send, and an override of the cap and the sleeping rule is decided (and audited) per send.
   */
  deliveryRules: { reengagement: boolean; exempt: boolean };
}

interface Context {
  readonly now: number;
  readonly timeZone: string;
}

function blankDraft(context: Context): ComposeDraft {
  return {
    values: initialComposeValues(context.now, context.timeZone),
    target: "subscribers",
    channels: [],
    sites: [],
    segmentChoice: { source: "saved", segmentId: "", draft: EMPTY_SEGMENT_DRAFT },
    category: "marketing",
    collapseKey: "",
    people: null,
    deliveryRules: { reengagement: false, exempt: false },
  };
}

type Content = Pick<Template, "title" | "body" | "url" | "icon" | "image" | "urgency" | "ttl"> & FullContent;

/** The full notification's fields (issue 19) as a template or a send answers them: absent or null when not set. */
interface FullContent {
  readonly actions?: readonly { readonly label: string; readonly url: string }[] | null;
  readonly renotify?: boolean | null;
  readonly requireInteraction?: boolean | null;
  readonly silent?: boolean | null;
  readonly badge?: string | null;
  readonly appBadge?: number | null;
  readonly data?: unknown;
}

/** Custom data as the form shows it: indented JSON, "" for none. */
function dataText(data: unknown): string {
  return data === undefined || data === null ? "" : JSON.stringify(data, null, 2);
}

function withContent(draft: ComposeDraft, content: Content): ComposeDraft {
  return {
    ...draft,
    values: {
      ...draft.values,
      title: content.title,
      body: content.body ?? "",
      url: content.url ?? "",
      icon: content.icon ?? "",
      image: content.image ?? "",
      urgency: content.urgency,
      ttl: content.ttl,
      actions: (content.actions ?? []).map(({ label, url }) => ({ label, url })),
      renotify: content.renotify === true,
      requireInteraction: content.requireInteraction === true,
      silent: content.silent === true,
      badge: content.badge ?? "",
      appBadge: content.appBadge === undefined || content.appBadge === null ? "" : String(content.appBadge),
      data: dataText(content.data),
    },
  };
}

/** A template's content and (when it keeps one) its audience. */
export function draftFromTemplate(template: Template, context: Context): ComposeDraft {
  const draft = { ...withContent(blankDraft(context), template), collapseKey: template.collapseKey ?? "" };
  const audience = template.audience;
  if (audience === null) return draft;
  const sites = audience.sites ?? [];
  if (audience.type === "segment") return { ...draft, target: "segment", sites, segmentChoice: { ...draft.segmentChoice, source: "saved", segmentId: audience.segment } };
  return { ...draft, sites, channels: audience.type === "channels" ? [...audience.channels] : [] };
}

/**
 * A send as the form to copy it (`duplicate`: to go now, by default) or to edit it (`edit`: at
 * its time). A send to "this browser" is copied as a send to everyone: the test target is the
 * "Enviar para mim" button's.
 */
export function draftFromNotification(send: Notification, mode: "duplicate" | "edit", context: Context): ComposeDraft {
  let draft: ComposeDraft = { ...withContent(blankDraft(context), send), collapseKey: send.collapseKey ?? "", category: send.category };
  if (mode === "edit" && send.sendAt !== null) {
    draft = { ...draft, values: { ...draft.values, when: "later", ...epochToWallTime(Date.parse(send.sendAt), context.timeZone) } };
  }
  if (mode === "edit") draft = { ...draft, deliveryRules: { reengagement: send.reengagement, exempt: send.exempt } };
  const audience = send.audience;
  const sites = "sites" in audience && audience.sites !== undefined ? [...audience.sites] : [];
  switch (audience.type) {
    case "channels":
      return { ...draft, channels: [...audience.channels], sites };
    case "users":
      return { ...draft, target: "people", sites, people: audience.users };
    case "segment":
      if (audience.segment !== null) return { ...draft, target: "segment", sites, segmentChoice: { ...draft.segmentChoice, source: "saved", segmentId: audience.segment } };
      return { ...draft, target: "segment", sites, segmentChoice: { ...draft.segmentChoice, source: "written", draft: { ...EMPTY_SEGMENT_DRAFT, expression: audience.expression ?? "" } } };
    case "all":
      return { ...draft, sites };
    default:
      return draft;
  }
}

/**
 * What "Salvar como modelo" keeps of the form: its content, and its audience when it is one a
 * template can hold (everyone, channels, a saved segment); none for people or a written expression.
 */
export function templateRequestOf(name: string, draft: ComposeDraft): CreateTemplateRequest {
  const text = (value: string) => (value.trim() === "" ? null : value.trim());
  // The full notification's fields as a send takes them (the form was validated); null clears one in an update.
  const full = toNotificationRequest(draft.values, { timeZone: "UTC", audience: { type: "all" }, collapseKey: draft.collapseKey });
  return {
    name: name.trim(),
    title: draft.values.title.trim(),
    body: text(draft.values.body),
    url: text(draft.values.url),
    icon: text(draft.values.icon),
    image: text(draft.values.image),
    urgency: draft.values.urgency,
    ttl: draft.values.ttl,
    collapseKey: text(draft.collapseKey),
    actions: full.actions ?? null,
    renotify: full.renotify === true,
    requireInteraction: full.requireInteraction === true,
    silent: full.silent === true,
    badge: full.badge ?? null,
    appBadge: full.appBadge ?? null,
    data: full.data ?? null,
    audience: templateAudienceOf(draft),
  };
}

function templateAudienceOf(draft: ComposeDraft): TemplateAudience | null {
  const sites = draft.sites.length > 0 ? { sites: [...draft.sites] } : {};
  if (draft.target === "people") return null;
  if (draft.target === "segment") {
    return draft.segmentChoice.source === "saved" && draft.segmentChoice.segmentId !== "" ? { type: "segment", segment: draft.segmentChoice.segmentId, ...sites } : null;
  }
  return draft.channels.length > 0 ? { type: "channels", channels: [...draft.channels], ...sites } : { type: "all", ...sites };
}
