import { XMLParser, XMLValidator } from "fast-xml-parser";
import { Parser as HtmlParser } from "htmlparser2";

/** One entry of a feed, as Sino publishes it. */
export interface FeedEntry {
  /** guid (RSS) or id (Atom), else the link: what makes an item the same item at the next poll. */
  readonly key: string;
  readonly title: string;
  /** Plain text (HTML tags dropped, entities decoded, white space folded); null: none. */
  readonly summary: string | null;
  readonly link: string | null;
  /** From `enclosure` (an image type) or `media:content` / `media:thumbnail`; null: none. */
  readonly image: string | null;
}

export interface ParsedFeed {
  readonly title: string | null;
  /** In document order (feeds list the newest first). */
  readonly entries: readonly FeedEntry[];
}

export class FeedParseError extends Error {
  constructor(
    readonly code: "feed_malformed" | "feed_not_a_feed",
    message: string,
  ) {
    super(message);
    this.name = "FeedParseError";
  }
}

/** Elements that may repeat, read as arrays even when a document has one of them. */
const LISTS = new Set(["item", "entry", "link", "enclosure", "media:content", "media:thumbnail", "category"]);

/**
 * RSS 2.0, RSS 1.0 (RDF) and Atom 1.0 through fast-xml-parser: the document is validated first
 * (a malformed feed is an error, not a guess), entity expansion stays within the library's limits
 * (no "billion laughs"), and DOCTYPE external entities are never fetched (it has no I/O).
 */
export function parseFeed(xml: string): ParsedFeed {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) {
    throw new FeedParseError("feed_malformed", `not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`);
  }
  let doc: Record<string, unknown>;
  try {
    doc = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: "@_",
      textNodeName: "#text",
      parseTagValue: false,
      parseAttributeValue: false,
      trimValues: true,
      processEntities: { enabled: true, maxTotalExpansions: 1000, maxExpandedLength: 100_000 },
      htmlEntities: true,
      isArray: (name) => LISTS.has(name),
    }).parse(xml) as Record<string, unknown>;
  } catch (error) {
    throw new FeedParseError("feed_malformed", error instanceof Error ? error.message : String(error));
  }
  const rss = record(doc.rss);
  if (rss !== undefined) {
    const channel = record(rss.channel);
    if (channel === undefined) throw new FeedParseError("feed_not_a_feed", "rss without a channel");
    return { title: textOf(channel.title) ?? null, entries: list(channel.item).map(rssEntry).filter(isEntry) };
  }
  const rdf = record(doc["rdf:RDF"]);
  if (rdf !== undefined) {
    return { title: textOf(record(rdf.channel)?.title) ?? null, entries: list(rdf.item).map(rssEntry).filter(isEntry) };
  }
  const feed = record(doc.feed);
  if (feed !== undefined) return { title: textOf(feed.title) ?? null, entries: list(feed.entry).map(atomEntry).filter(isEntry) };
  throw new FeedParseError("feed_not_a_feed", "neither RSS nor Atom");
}

function rssEntry(value: unknown): FeedEntry | undefined {
  const item = record(value);
  if (item === undefined) return undefined;
  const link = textOf(list(item.link)[0]) ?? attr(item, "@_rdf:about");
  const guid = textOf(item.guid);
  const summaryHtml = textOf(item.description) ?? textOf(item["content:encoded"]);
  const imageEnclosure = list(item.enclosure).map(record).find((e) => e !== undefined && isImage(attr(e, "@_type"), attr(e, "@_url")));
  return entry({
    key: guid ?? link,
    title: textOf(item.title),
    summaryHtml,
    link,
    image: (imageEnclosure === undefined ? undefined : attr(imageEnclosure, "@_url")) ?? mediaImage(item),
  });
}

function atomEntry(value: unknown): FeedEntry | undefined {
  const item = record(value);
  if (item === undefined) return undefined;
  const links = list(item.link).map(record).filter((l): l is Record<string, unknown> => l !== undefined);
  const alternate = links.find((l) => (attr(l, "@_rel") ?? "alternate") === "alternate") ?? links[0];
  const enclosure = links.find((l) => attr(l, "@_rel") === "enclosure" && isImage(attr(l, "@_type"), attr(l, "@_href")));
  const link = alternate === undefined ? undefined : attr(alternate, "@_href");
  return entry({
    key: textOf(item.id) ?? link,
    title: textOf(item.title),
    summaryHtml: textOf(item.summary) ?? textOf(item.content),
    link,
    image: (enclosure === undefined ? undefined : attr(enclosure, "@_href")) ?? mediaImage(item),
  });
}

function mediaImage(item: Record<string, unknown>): string | undefined {
  const group = record(item["media:group"]);
  const candidates = [...list(item["media:content"]), ...list(group?.["media:content"]), ...list(item["media:thumbnail"]), ...list(group?.["media:thumbnail"])];
  for (const candidate of candidates) {
    const media = record(candidate);
    if (media === undefined) continue;
    const url = attr(media, "@_url");
    const medium = attr(media, "@_medium");
    if (url !== undefined && (medium === "image" || isImage(attr(media, "@_type"), url) || (medium === undefined && attr(media, "@_type") === undefined))) return url;
  }
  return undefined;
}

function entry(parts: { key: string | undefined; title: string | undefined; summaryHtml: string | undefined; link: string | undefined; image: string | undefined }): FeedEntry | undefined {
  if (parts.key === undefined || parts.key === "") return undefined;
  const summary = parts.summaryHtml === undefined ? null : htmlToText(parts.summaryHtml);
  const title = parts.title === undefined ? "" : htmlToText(parts.title);
  // An item with neither a title nor a summary has nothing to say in a push.
  if (title === "" && (summary === null || summary === "")) return undefined;
  return {
    key: parts.key,
    title: title === "" ? summary! : title,
    summary: summary === "" ? null : summary,
    link: httpUrl(parts.link),
    image: httpUrl(parts.image),
  };
}

/** Plain text of an HTML fragment through htmlparser2: tags dropped, entities decoded, script/style skipped. */
export function htmlToText(html: string): string {
  let out = "";
  let skipping = 0;
  const parser = new HtmlParser(
    {
      onopentagname(name) {
        if (name === "script" || name === "style") skipping++;
        else if (BLOCKS.has(name)) out += " ";
      },
      onclosetag(name) {
        if (name === "script" || name === "style") skipping = Math.max(0, skipping - 1);
        else if (BLOCKS.has(name)) out += " ";
      },
      ontext(text) {
        if (skipping === 0) out += text;
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  // Control characters (other than white space) never reach a notification.
  // eslint-disable-next-line no-control-regex
  return out.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "").replace(/\s+/g, " ").trim();
}

const BLOCKS = new Set(["p", "br", "div", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "tr", "td", "th", "figure", "figcaption"]);

function isImage(type: string | undefined, url: string | undefined): boolean {
  if (type !== undefined) return type.toLowerCase().startsWith("image/");
  return url !== undefined && /\.(jpe?g|png|gif|webp|avif)(\?|#|$)/i.test(url);
}

function httpUrl(value: string | undefined): string | null {
  if (value === undefined) return null;
  try {
    const url = new URL(value.trim());
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

function isEntry(value: FeedEntry | undefined): value is FeedEntry {
  return value !== undefined;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function list(value: unknown): unknown[] {
  return value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
}

function attr(node: Record<string, unknown>, name: string): string | undefined {
  const value = node[name];
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** An element's text: a plain string, or `#text` of an element with attributes (Atom `type`, RSS `isPermaLink`). */
function textOf(value: unknown): string | undefined {
  if (typeof value === "string") return value.trim() === "" ? undefined : value.trim();
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  const node = record(value);
  if (node === undefined) return undefined;
  return textOf(node["#text"]);
}
