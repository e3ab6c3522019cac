import { describe, expect, it } from "vitest";
import type { Notice } from "../../shared/api/notices.js";
import { refreshFirstPage } from "./notice-list.js";

const notice = (id: string, minute: number): Notice => ({
  id,
  title: `Aviso ${id}`,
  body: null,
  url: null,
  icon: null,
  image: null,
  channels: [],
  publishedAt: new Date(Date.UTC(2026, 10, 26, 12, minute)).toISOString(),
});

describe("reading the first page again", () => {
  const a = notice("a", 1);
  const b = notice("b", 2);
  const c = notice("c", 3);
  const d = notice("d", 4);

  it("adds what was published meanwhile, newest first", () => {
    expect(refreshFirstPage([b, a], [c, b, a], true).map((n) => n.id)).toEqual(["c", "b", "a"]);
  });

  it("drops what the page should hold but no longer does (withdrawn from Avisos)", () => {
    expect(refreshFirstPage([d, c, b], [d, b], false).map((n) => n.id)).toEqual(["d", "b"]);
    expect(refreshFirstPage([c, b, a], [c, a], true).map((n) => n.id)).toEqual(["c", "a"]);
  });

  it("keeps older notices loaded with 'Carregar mais' when the page is not the whole list", () => {
    expect(refreshFirstPage([d, c, b, a], [d, c], false).map((n) => n.id)).toEqual(["d", "c", "b", "a"]);
    expect(refreshFirstPage([d, c, b, a], [], true)).toEqual([]);
  });
});
