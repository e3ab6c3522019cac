import { describe, expect, it } from "vitest";
import { suggestSlug, validateChannelForm } from "./channel-form.js";

const values = { slug: "obras", name: "Obras", description: "", isDefault: false };

describe("validateChannelForm", () => {
  it("accepts a good channel", () => {
    expect(validateChannelForm(values, true)).toEqual({});
  });

  it.each(["Obras", "-obras", "obras-", "obras na rua", "", "a".repeat(41)])("refuses the slug %j", (slug) => {
    expect(validateChannelForm({ ...values, slug }, true)).toEqual({ slug: "channels.errors.slugInvalid" });
  });

  it("refuses the reserved slug 'todos'", () => {
    expect(validateChannelForm({ ...values, slug: "todos" }, true)).toEqual({ slug: "channels.errors.slugReserved" });
  });

  it("needs a name, and ignores the slug when editing (it never changes)", () => {
    expect(validateChannelForm({ ...values, slug: "", name: "  " }, false)).toEqual({ name: "channels.errors.nameRequired" });
  });
});

describe("suggestSlug", () => {
  it("makes a slug from a pt-BR name", () => {
    expect(suggestSlug("Obras na Rua São João!")).toBe("obras-na-rua-sao-joao");
    expect(suggestSlug("  Avisos — Educação  ")).toBe("avisos-educacao");
  });
});
