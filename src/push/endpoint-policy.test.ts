import { describe, expect, it } from "vitest";
import { checkEndpoint, DEFAULT_ENDPOINT_POLICY, type EndpointPolicy } from "./endpoint-policy.js";
import { isPublicAddress } from "./address-policy.js";

const testPolicy: EndpointPolicy = {
  ...DEFAULT_ENDPOINT_POLICY,
  allowedHosts: [...DEFAULT_ENDPOINT_POLICY.allowedHosts, "127.0.0.1"],
  allowPrivateAddresses: true,
};

describe("checkEndpoint with the default policy", () => {
  const cases: Array<[string, string]> = [
    ["https://fcm.googleapis.com/fcm/send/abc:APA91b", "ok"],
    ["https://updates.push.services.mozilla.com/wpush/v2/gAAAA", "ok"],
    ["https://web.push.apple.com/QGx1", "ok"],
    ["https://wns2-by3p.notify.windows.com/w/?token=BQYAAA", "ok"],
    ["https://FCM.googleapis.com/fcm/send/x", "ok"],
    ["http://fcm.googleapis.com/fcm/send/x", "endpoint_not_https"],
    ["ftp://fcm.googleapis.com/x", "endpoint_not_https"],
    ["not a url", "endpoint_invalid"],
    ["https://fcm.googleapis.com/x#frag", "endpoint_invalid"],
    ["https://user:pw@fcm.googleapis.com/x", "endpoint_has_credentials"],
    ["https://user@fcm.googleapis.com/x", "endpoint_has_credentials"],
    ["https://evil.example.com/fcm/send/x", "endpoint_host_not_allowed"],
    ["https://fcm.googleapis.com.evil.example/x", "endpoint_host_not_allowed"],
    ["https://notify.windows.com/x", "endpoint_host_not_allowed"],
    ["https://evilnotify.windows.com/x", "endpoint_host_not_allowed"],
    ["https://8.8.8.8/x", "endpoint_ip_literal"],
    ["https://[2001:4860:4860::8888]/x", "endpoint_ip_literal"],
    ["https://127.0.0.1/x", "endpoint_private_address"],
    ["https://10.1.2.3/x", "endpoint_private_address"],
    ["https://192.168.0.1/x", "endpoint_private_address"],
    ["https://169.254.169.254/latest/meta-data", "endpoint_private_address"],
    ["https://[::1]/x", "endpoint_private_address"],
    ["https://[::ffff:127.0.0.1]/x", "endpoint_private_address"],
    ["https://2130706433/x", "endpoint_private_address"],
    ["https://0x7f.0x1/x", "endpoint_private_address"],
    ["https://0177.0.0.1/x", "endpoint_private_address"],
    ["https://0x8.0x8.0x8.0x8/x", "endpoint_ip_literal"],
    ["https://localhost/x", "endpoint_private_address"],
    ["https://fcm.googleapis.com/" + "a".repeat(1100), "endpoint_too_long"],
    ["https://fcm.googleapis.com:443/fcm/send/x", "ok"],
    ["https://fcm.googleapis.com:8443/fcm/send/x", "endpoint_host_not_allowed"],
    ["https://wns2-by3p.notify.windows.com:8080/w/?token=BQYAAA", "endpoint_host_not_allowed"],
  ];
  it.each(cases)("%s → %s", (endpoint, expected) => {
    const result = checkEndpoint(endpoint, DEFAULT_ENDPOINT_POLICY);
    expect(result.ok ? "ok" : result.code).toBe(expected);
  });
});

describe("checkEndpoint with a test policy", () => {
  it("accepts a listed loopback address when private addresses are allowed", () => {
    expect(checkEndpoint("https://127.0.0.1:8443/push/1", testPolicy).ok).toBe(true);
  });
  it("still refuses an unlisted IP literal", () => {
    const r = checkEndpoint("https://127.0.0.2:8443/push/1", testPolicy);
    expect(r.ok ? "ok" : r.code).toBe("endpoint_ip_literal");
  });
  it("still requires https", () => {
    const r = checkEndpoint("http://127.0.0.1:8443/push/1", testPolicy);
    expect(r.ok ? "ok" : r.code).toBe("endpoint_not_https");
  });
});

describe("isPublicAddress", () => {
  it.each([
    ["8.8.8.8", true],
    ["2001:4860:4860::8888", true],
    ["127.0.0.1", false],
    ["10.0.0.1", false],
    ["172.16.5.4", false],
    ["192.168.1.1", false],
    ["100.64.0.1", false],
    ["169.254.169.254", false],
    ["0.0.0.0", false],
    ["224.0.0.1", false],
    ["::1", false],
    ["::", false],
    ["fc00::1", false],
    ["fe80::1", false],
    ["::ffff:10.0.0.1", false],
    ["::ffff:8.8.8.8", true],
    ["not-an-ip", false],
  ])("%s → %s", (ip, expected) => {
    expect(isPublicAddress(ip)).toBe(expected);
  });
});
