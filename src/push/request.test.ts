import { describe, expect, it } from "vitest";
import { PushError } from "./push-error.js";
import { splitEndpoint } from "./request.js";

function parsed(endpoint: string): { origin: string; path: string } {
  const url = new URL(endpoint);
  return { origin: url.origin, path: url.pathname + url.search };
}

// Each endpoint twice: the first call parses and caches the authority, the second takes the fast
// path; both must agree with the WHATWG parser.
const ENDPOINTS = [
  "https://fcm.googleapis.com/fcm/send/dGVzdA:APA91bH-x_y~z",
  "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABk%2Fq%3D%3D",
  "https://web.push.apple.com/QGuQyavXutnMa2ZVjuJDS4KzTv1",
  "https://wns2-by3p.notify.windows.com/w/?token=BQYAAAB%2bJ&x=1",
  "https://EXAMPLE.com:443/Path/With/Case",
  "https://example.com:8443/p",
  "https://example.com/a/./b",
  "https://example.com/a/../b",
  "https://example.com/a/%2e%2E/b",
  "https://example.com/a/.",
  "https://example.com/p?",
  "https://example.com/p?q='quoted'",
  "https://example.com/p with space",
  "https://example.com/p#fragment",
  "https://example.com/p\\back",
  "https://example.com/{braces}^`|",
  "https://example.com/ünïcode",
  "https://xn--bcher-kva.example/p",
  "https://bücher.example/p",
  "https://user:pass@example.com/p",
  "https://example.com",
  "https://example.com#f/x",
  "https://example.com?q/x",
  "https://example.com\\p/x",
  "https://[::1]:8443/p",
];

describe("splitEndpoint", () => {
  it.each(ENDPOINTS)("gives what new URL gives for %s, parsed or cached", (endpoint) => {
    expect(splitEndpoint(endpoint)).toEqual(parsed(endpoint));
    expect(splitEndpoint(endpoint)).toEqual(parsed(endpoint));
  });

  it("refuses what is not an https URL, cached authority or not", () => {
    splitEndpoint("https://example.com/warm");
    for (const endpoint of ["not a url", "http://example.com/p", "https://", "ftp://example.com/p"]) {
      expect(() => splitEndpoint(endpoint)).toThrow(PushError);
    }
  });
});
