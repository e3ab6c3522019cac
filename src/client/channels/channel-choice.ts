import { ApiRequestError } from "../messaging/api-client.js";

/**
 * The channel picker's rules (issue 5), shared by the script-tag bell and `<SinoBell />`: the
 * server refuses a choice over its limit, so "Salvar" stays off while the choice is too long.
 */
export function exceedsChannelLimit(chosen: readonly string[], limit: number | null): boolean {
  return limit !== null && chosen.length > limit;
}

/**
 * What to tell the visitor when saving the choice failed: the server's pt-BR message when it
 * answered; null when there was no answer at all (the UI then says so in its own words).
 */
export function channelSaveErrorMessage(error: unknown): string | null {
  return error instanceof ApiRequestError && error.status !== 0 ? error.message : null;
}
