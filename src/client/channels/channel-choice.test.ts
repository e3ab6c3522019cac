import { describe, expect, it } from "vitest";
import { ApiRequestError } from "../messaging/api-client.js";
import { channelSaveErrorMessage, exceedsChannelLimit } from "./channel-choice.js";

describe("the channel choice's rules", () => {
  it("is over the limit only past it, and never without one", () => {
    expect(exceedsChannelLimit(["a", "b"], 2)).toBe(false);
    expect(exceedsChannelLimit(["a", "b", "c"], 2)).toBe(true);
    expect(exceedsChannelLimit(["a", "b", "c"], null)).toBe(false);
  });

  it("passes on the server's pt-BR message, and nothing when the server never answered", () => {
    expect(channelSaveErrorMessage(new ApiRequestError(400, "too_many_channels", "Escolha no máximo 2 canais."))).toBe("Escolha no máximo 2 canais.");
    expect(channelSaveErrorMessage(new ApiRequestError(0, "network", "Failed to fetch"))).toBeNull();
    expect(channelSaveErrorMessage(new Error("boom"))).toBeNull();
  });
});
