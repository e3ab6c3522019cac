/**
 * The framework-free Sino client: what the embed (`sino.js`, `<sino-bell>`), the React package and
 * Sino's own pages build on; `worker.ts` is its twin for service workers. These two entries are
 * all a browser-side package imports (a lint rule forbids reaching into the folders below). Keep
 * this surface stable; add, do not change.
 */
export { createSinoClient } from "./sino-client.js";
export type {
  SinoChangeListener,
  SinoChannelChoice,
  SinoClickListener,
  SinoClient,
  SinoClientOptions,
  SinoNotice,
  SinoSnapshot,
  SinoStatus,
} from "./sino-client.js";
export { ApiRequestError, createApiClient } from "./messaging/api-client.js";
export type { ApiClient, ApiClientOptions, NoticesRequest } from "./messaging/api-client.js";
export { createJsonRequest, readApiError } from "./http/json-request.js";
export type { ApiErrorDetail, JsonRequester, JsonRequestOptions, RequestFailure } from "./http/json-request.js";
export type { UnavailableReason } from "./messaging/availability.js";
export { CLICK_MESSAGE } from "./messaging/click-message.js";
export type { NotificationActionId, SinoClick, SinoClickAction } from "./messaging/click-message.js";
export { supportsDeclarativePush } from "./messaging/declarative-push.js";
export { CONSOLE_MESSAGES } from "./messaging/console-messages.js";
export { unblockHelpKey } from "./messaging/unblock-help.js";
export type { UnblockHelpKey } from "./messaging/unblock-help.js";
export type { PublicChannel } from "../shared/api/channels.js";
export type { PushSubscriptionJson } from "../shared/api/subscriptions.js";
export { isValidUserId } from "../shared/api/user-id-rule.js";
export type { UserClaim } from "../shared/api/user-id.js";
export type { SignedUserClaim } from "../shared/api/subscriptions.js";
export { canonicalTags, isValidTagKey, isValidTagValue, TAG_LIMITS } from "../shared/api/tag-rule.js";
export type { Tags, TagsPatch, TagValue } from "../shared/api/tag-rule.js";
export { DEFAULT_SOFT_PROMPT, PROMPT_STORAGE_KEY, softPromptConfig } from "./prompt/prompt-policy.js";
export type { SoftPromptConfig } from "./prompt/prompt-policy.js";
export { scheduleSoftPrompt } from "./prompt/soft-prompt-schedule.js";
export type { SoftPromptChoice, SoftPromptScheduleDeps } from "./prompt/soft-prompt-schedule.js";
export { channelSaveErrorMessage, exceedsChannelLimit } from "./channels/channel-choice.js";
export { BELL_CATALOG } from "./texts/bell-catalog.js";
export { CONSENT_CATALOGUE_VERSION, consentFor } from "./privacy/consent.js";
export type { ConsentSource } from "./privacy/consent.js";
export { downloadMyData, myDataFileName } from "./privacy/my-data.js";
export type { ErasedData, MyData } from "./privacy/my-data.js";
