import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.js";

describe("authentication options in the configuration", () => {
  it("reads SINO_TRUST_PROXY as off, on, a hop count or a list of proxies", () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ SINO_TRUST_PROXY: "true" }).trustProxy).toBe(true);
    expect(loadConfig({ SINO_TRUST_PROXY: "2" }).trustProxy).toBe(2);
    expect(loadConfig({ SINO_TRUST_PROXY: "10.0.0.1, 10.1.0.0/16,::1" }).trustProxy).toEqual(["10.0.0.1", "10.1.0.0/16", "::1"]);
    expect(() => loadConfig({ SINO_TRUST_PROXY: "qualquer um" })).toThrow(ConfigError);
  });

  it("reads SINO_PUBLISH_RATE_LIMIT per minute, 60 by default", () => {
    expect(loadConfig({}).publishRateLimit).toBe(60);
    expect(loadConfig({ SINO_PUBLISH_RATE_LIMIT: "5" }).publishRateLimit).toBe(5);
    expect(() => loadConfig({ SINO_PUBLISH_RATE_LIMIT: "0" })).toThrow(ConfigError);
  });
});
