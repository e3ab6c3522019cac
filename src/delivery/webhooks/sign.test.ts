import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { newWebhookSecret, signWebhook } from "./sign.js";

describe("webhook signing (Standard Webhooks)", () => {
  it("matches a vector computed by hand with openssl", () => {
    // printf 'msg_p5jXN8AQM9LWM0D4loKWxJek.1614265330.{"test": 2432232314}' |
    //   openssl dgst -sha256 -mac HMAC -macopt hexkey:"$(printf MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw | base64 -d | xxd -p)" -binary | base64
    // (the example of the spec's reference libraries)
    const headers = signWebhook("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, '{"test": 2432232314}');
    expect(headers).toEqual({
      "webhook-id": "msg_p5jXN8AQM9LWM0D4loKWxJek",
      "webhook-timestamp": "1614265330",
      "webhook-signature": "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
    });
  });

  it("signs what the spec's own library verifies, and nothing else", () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const body = JSON.stringify({ type: "recipient.accepted", timestamp: "2026-01-01T00:00:00.000Z", data: { notificationId: "1" } });
    const now = Math.floor(Date.now() / 1000);
    const headers = signWebhook(secret, "msg_abc", now, body);
    const receiver = new Webhook(secret);
    expect(receiver.verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(() => receiver.verify(`${body} `, { ...headers })).toThrow();
    expect(() => new Webhook(newWebhookSecret()).verify(body, { ...headers })).toThrow();
  });
});
