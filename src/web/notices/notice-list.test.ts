import { describe, expect, it } from "vitest";
import type { Notice } from "../../shared/api/notices.js";
import { mergeNotices } from "./notice-list.js";

function aNotice(id: string, publishedAt: string, title = `Aviso ${id}`): Notice {
  return { id, title, body: null, url: null, icon: null, image: null, channels: [], publishedAt };
}

describe("mergeNotices", () => {
  it("puts a live notice on top of the loaded page", () => {
    const page = [aNotice("2", "2026-03-10T10:00:00Z"), aNotice("1", "2026-03-09T10:00:00Z")];
    const merged = mergeNotices(page, [aNotice("3", "2026-03-10T11:00:00Z")]);
    expect(merged.map((n) => n.id)).toEqual(["3", "2", "1"]);
  });

  it("keeps each notice once when the stream and a page both bring it", () => {
    const first = mergeNotices([], [aNotice("3", "2026-03-10T11:00:00Z")]);
    const merged = mergeNotices(first, [aNotice("3", "2026-03-10T11:00:00Z", "Aviso 3 (outra cópia)"), aNotice("2", "2026-03-10T10:00:00Z")]);
    expect(merged.map((n) => n.id)).toEqual(["3", "2"]);
  });

  it("appends an older page after the current one", () => {
    const merged = mergeNotices([aNotice("5", "2026-03-10T11:00:00Z")], [aNotice("4", "2026-03-01T11:00:00Z")]);
    expect(merged.map((n) => n.id)).toEqual(["5", "4"]);
  });
});
