import { describe, expect, it } from "vitest";
import { classicPayload, declarativePayload } from "../../shared/api/notification-payload.js";
import { buildNotification } from "./notification-content.js";
import { planNotificationClick } from "./notification-click.js";

const origin = "https://sino.example.com.br";
const texts = { defaultTitle: "Sino", fallbackBody: "Você tem um novo aviso." };
const fields = {
  title: "Obras",
  url: "/avisos/3",
  tag: "sino-3",
  id: "3",
  actions: [
    { label: "Ver mapa", url: "/mapa" },
    { label: "Desvios", url: "https://transito.example.gov.br/desvios" },
  ],
  data: { tela: "obras", id: 3 },
};

/** The notification Sino's worker shows for a payload, as the click event hands it back. */
const shown = (payload: string) => {
  const { options } = buildNotification(payload, texts);
  return { data: options.data, actions: options.actions };
};

describe("planNotificationClick", () => {
  it("opens the notification's link for a click on its body, reported without an action", () => {
    const plan = planNotificationClick(shown(classicPayload(fields)), "", origin);
    expect(plan).toEqual({
      link: `${origin}/avisos/3`,
      action: undefined,
      click: { notificationId: "3", action: "open", url: `${origin}/avisos/3`, data: { tela: "obras", id: 3 } },
    });
  });

  it.each([
    ["1", `${origin}/mapa`],
    ["2", "https://transito.example.gov.br/desvios"],
  ] as const)("opens action %s's own link and reports that action", (action, link) => {
    const plan = planNotificationClick(shown(classicPayload(fields)), action, origin);
    expect(plan.link).toBe(link);
    expect(plan.action).toBe(action);
    expect(plan.click).toEqual({ notificationId: "3", action, url: link, data: { tela: "obras", id: 3 } });
  });

  it("reads a notification the browser showed from a declarative push (data { sinoId, url, data }, actions[].navigate)", () => {
    const payload = JSON.parse(declarativePayload(fields, origin)) as { notification: { data: unknown; actions: Array<{ action: string; navigate: string }> } };
    const notification = { data: payload.notification.data, actions: payload.notification.actions };
    expect(planNotificationClick(notification, "", origin).click).toEqual({ notificationId: "3", action: "open", url: `${origin}/avisos/3`, data: { tela: "obras", id: 3 } });
    expect(planNotificationClick(notification, "2", origin)).toMatchObject({ link: "https://transito.example.gov.br/desvios", action: "2" });
  });

  it("refuses an action link the policy refuses, and still counts the click", () => {
    const payload = JSON.stringify({ title: "T", id: "5", actions: [{ action: "1", title: "Mal", url: "javascript:alert(1)" }] });
    const plan = planNotificationClick(shown(payload), "1", origin);
    expect(plan.link).toBeNull();
    expect(plan.click).toMatchObject({ notificationId: "5", action: "1", url: null });
  });

  it("treats an unknown action id as a click on the body", () => {
    const plan = planNotificationClick(shown(classicPayload(fields)), "responder", origin);
    expect(plan.action).toBeUndefined();
    expect(plan.click.action).toBe("open");
    expect(plan.link).toBe(`${origin}/avisos/3`);
  });

  it("gives null data and no id for a notification that carries none", () => {
    expect(planNotificationClick({ data: null }, "", origin)).toEqual({ link: `${origin}/`, action: undefined, click: { notificationId: null, action: "open", url: `${origin}/`, data: null } });
  });
});
