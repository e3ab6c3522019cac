/**
 * A header's text as the sender meant it. HTTP header values are bytes that Node reads as
 * latin1, but `curl -H "Title: Backup concluído"` sends UTF-8: the bytes are re-read as UTF-8
 * when they form valid UTF-8. RFC 2047 encoded words (`=?UTF-8?B?…?=`, `=?UTF-8?Q?…?=`), which
 * ntfy also accepts, are decoded too.
 */
export function headerText(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  const raw = Array.isArray(value) ? value.join(", ") : value;
  const encoded = /^=\?utf-8\?([bq])\?([^?]*)\?=$/i.exec(raw.trim());
  if (encoded !== null) {
    const [, kind, text = ""] = encoded;
    if (kind?.toLowerCase() === "b") return Buffer.from(text, "base64").toString("utf8");
    const bytes = text.replace(/_/g, " ").replace(/=([0-9a-f]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, "latin1").toString("utf8");
  }
  const bytes = Buffer.from(raw, "latin1");
  const utf8 = bytes.toString("utf8");
  // Round-trips only when the bytes were valid UTF-8; otherwise they really were latin1.
  return Buffer.from(utf8, "utf8").equals(bytes) ? utf8 : raw;
}

/** The first header present among `names`, as text. */
export function firstHeader(headers: Record<string, string | string[] | undefined>, names: readonly string[]): string | undefined {
  for (const name of names) {
    const text = headerText(headers[name]);
    if (text !== undefined && text.trim() !== "") return text.trim();
  }
  return undefined;
}
