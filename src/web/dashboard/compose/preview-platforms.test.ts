import { describe, expect, it } from "vitest";
import { previewParts } from "./preview-platforms.js";

const full = { image: "https://loja.example/i.png", badge: "/selo.png", actions: ["Ver pedido", "Rastrear"], appBadge: 3 };

describe("what each platform's preview shows", () => {
  it("Android: badge, image and both buttons", () => {
    expect(previewParts("android", full)).toMatchObject({ image: true, badge: true, actions: ["Ver pedido", "Rastrear"], appBadge: null });
  });

  it("Windows: image and both buttons, no badge", () => {
    expect(previewParts("windows", full)).toMatchObject({ image: true, badge: false, actions: ["Ver pedido", "Rastrear"] });
  });

  it("macOS: only the first button (under Opções), no image nor badge", () => {
    expect(previewParts("macos", full)).toMatchObject({ image: false, badge: false, actions: ["Ver pedido"] });
  });

  it("iPhone's lock screen: no buttons and no image, the app badge on the icon", () => {
    expect(previewParts("iphone", full)).toMatchObject({ image: false, badge: false, actions: [], appBadge: 3 });
  });

  it("shows no image or badge that was not set", () => {
    expect(previewParts("android", { image: " ", badge: "", actions: [], appBadge: null })).toMatchObject({ image: false, badge: false, actions: [] });
  });
});
