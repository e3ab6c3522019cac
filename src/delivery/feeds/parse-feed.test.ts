import { describe, expect, it } from "vitest";
import { cut, feedItemNotification } from "./feed-notification.js";
import { FeedParseError, htmlToText, parseFeed } from "./parse-feed.js";

describe("parseFeed", () => {
  it("reads RSS 1.0 (RDF) items keyed by link", () => {
    const feed = parseFeed(`<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/">
  <channel rdf:about="https://site.example/"><title>RDF</title></channel>
  <item rdf:about="https://site.example/a"><title>A</title><link>https://site.example/a</link><description>Texto A</description></item>
</rdf:RDF>`);
    expect(feed).toEqual({ title: "RDF", entries: [{ key: "https://site.example/a", title: "A", summary: "Texto A", link: "https://site.example/a", image: null }] });
  });

  it("takes only image enclosures, media:thumbnail as a fallback, and drops non-http links", () => {
    const feed = parseFeed(`<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel><title>x</title>
<item><guid>1</guid><title>Podcast</title><link>javascript:alert(1)</link><enclosure url="https://site.example/ep.mp3" type="audio/mpeg" length="1"/><media:thumbnail url="https://site.example/capa.jpg"/></item>
</channel></rss>`);
    expect(feed.entries[0]).toMatchObject({ key: "1", link: null, image: "https://site.example/capa.jpg" });
  });

  it("refuses malformed XML, documents that are not feeds, and entity expansion bombs", () => {
    expect(() => parseFeed("<rss><channel>")).toThrow(FeedParseError);
    expect(() => parseFeed("<html><body>oi</body></html>")).toThrow(expect.objectContaining({ code: "feed_not_a_feed" }));
    const lol = `<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY a "${"x".repeat(5000)}"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><rss><channel><title>&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;</title></channel></rss>`;
    // Refused, or left unexpanded: never 10 MB of text out of a 6 KB document.
    let title: string | null = null;
    try {
      title = parseFeed(lol).title;
    } catch (error) {
      expect(error).toBeInstanceOf(FeedParseError);
    }
    expect((title ?? "").length).toBeLessThan(100_000);
  });

  it("turns HTML into plain text: tags and scripts dropped, entities decoded, white space folded, control characters removed", () => {
    expect(htmlToText("<p>Olá&nbsp;<b>mundo</b></p><script>alert(1)</script><ul><li>um</li><li>dois</li></ul>\u0007")).toBe("Olá mundo um dois");
  });
});

describe("feedItemNotification", () => {
  it("cuts title and summary to the notification's limits at a word, with an ellipsis", () => {
    expect(cut("uma frase curta", 80)).toBe("uma frase curta");
    const long = cut("palavra ".repeat(20), 30);
    expect(long.length).toBeLessThanOrEqual(30);
    expect(long).toBe("palavra palavra palavra…");
    const notification = feedItemNotification({ title: "T".repeat(200), summary: "resumo ".repeat(100), link: "https://site.example/x", image: "http://site.example/i.jpg" }, null, undefined, null);
    expect(notification.title.length).toBeLessThanOrEqual(80);
    expect(notification.body!.length).toBeLessThanOrEqual(300);
    // An http image is not shown by browsers on an https page: left out.
    expect(notification.image).toBeNull();
    expect(notification.url).toBe("https://site.example/x");
  });

  it("drops the image, then shrinks the body, when the push would not fit 4,096 bytes", () => {
    const image = `https://site.example/${"i".repeat(2000)}.jpg`;
    const link = `https://site.example/${"l".repeat(1000)}`;
    const notification = feedItemNotification({ title: "Título", summary: "resumo ".repeat(60), link, image }, null, "https://sino.example", null);
    expect(notification.image).toBeNull();
    expect(notification.url).toBe(link);
  });
});
