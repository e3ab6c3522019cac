import { describe, expect, it } from "vitest";
import { checkWebhookUrl, redactWebhookUrl, type ResolveHost } from "./url-policy.js";

const strict = { allowPrivateAddresses: false };
const resolveTo = (map: Record<string, string[]>): ResolveHost => async (host) => {
  const addresses = map[host];
  if (addresses === undefined) throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
  return addresses;
};
const dns = resolveTo({ "hooks.example.com": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"], "internal.example.com": ["93.184.215.14", "10.0.0.7"] });

describe("webhook URL policy", () => {
  it("accepts a public https URL, normalised", async () => {
    expect(await checkWebhookUrl("https://HOOKS.example.com:443/sino?k=1", strict, dns)).toEqual({ ok: true, url: "https://hooks.example.com/sino?k=1" });
  });

  it.each([
    ["http://hooks.example.com/x", "webhook_url_not_https"],
    ["ftp://hooks.example.com/x", "webhook_url_invalid"],
    ["not a url", "webhook_url_invalid"],
    ["https://user:pw@hooks.example.com/x", "webhook_url_invalid"],
    ["https://hooks.example.com/x#frag", "webhook_url_invalid"],
    ["https://127.0.0.1/x", "webhook_url_private_address"],
    ["https://[::1]/x", "webhook_url_private_address"],
    ["https://10.1.2.3/x", "webhook_url_private_address"],
    ["https://169.254.169.254/latest/meta-data", "webhook_url_private_address"],
    ["https://[::ffff:192.168.0.1]/x", "webhook_url_private_address"],
    ["https://localhost:8443/x", "webhook_url_private_address"],
    ["https://intranet/x", "webhook_url_private_address"],
    ["https://internal.example.com/x", "webhook_url_private_address"],
  ])("refuses %s with %s", async (url, code) => {
    expect(await checkWebhookUrl(url, strict, dns)).toEqual({ ok: false, code });
  });

  it("accepts a name that does not resolve yet: the delivery checks again", async () => {
    expect((await checkWebhookUrl("https://not-yet.example.com/x", strict, dns)).ok).toBe(true);
  });

  it("lets http and loopback through only when the test/dev option allows it", async () => {
    expect(await checkWebhookUrl("http://127.0.0.1:9000/x", { allowPrivateAddresses: true }, dns)).toEqual({ ok: true, url: "http://127.0.0.1:9000/x" });
  });

  it("logs never show the query", () => {
    expect(redactWebhookUrl("https://hooks.example.com/in?token=s3cret")).toBe("https://hooks.example.com/in");
  });
});
