/**
 * The framework-free Sino client: what the embed (`sino.js`, `<sino-bell>`) and the React package
 * build on. Keep this surface stable; add, do not change.
 */
export { createSinoClient } from "./sino-client.js";
export type {
  SinoChangeListener,
  SinoChannelChoice,
  SinoClient,
  SinoClientOptions,
  SinoNotice,
  SinoSnapshot,
  SinoStatus,
} from "./sino-client.js";
export { ApiRequestError } from "./messaging/api-client.js";
export type { UnavailableReason } from "./messaging/availability.js";
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
