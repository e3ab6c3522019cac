import { describe, expect, it } from "vitest";
import { dashboardApiErrorFrom } from "./dashboard-request.js";

describe("dashboardApiErrorFrom", () => {
  it("keeps the server's code, pt-BR message and field", () => {
    const error = dashboardApiErrorFrom({ kind: "http", status: 409, statusText: "Conflict", error: { code: "email_taken", message: "E-mail já usado.", field: "email" } });
    expect({ status: error.status, code: error.code, message: error.message, field: error.field }).toEqual({ status: 409, code: "email_taken", message: "E-mail já usado.", field: "email" });
  });

  it("has no code for a code this build does not know, and still shows the server's message", () => {
    const error = dashboardApiErrorFrom({ kind: "http", status: 400, statusText: "Bad Request", error: { code: "from_a_newer_server", message: "Texto do servidor." } });
    expect({ code: error.code, message: error.message }).toEqual({ code: undefined, message: "Texto do servidor." });
  });

  it("has no code and status 0 when there was no answer, and none for a proxy's page", () => {
    const network = dashboardApiErrorFrom({ kind: "network", cause: new TypeError("Failed to fetch") });
    expect({ status: network.status, code: network.code, isNetwork: network.isNetwork }).toEqual({ status: 0, code: undefined, isNetwork: true });
    const proxy = dashboardApiErrorFrom({ kind: "http", status: 502, statusText: "Bad Gateway", error: undefined });
    expect({ status: proxy.status, code: proxy.code, isNetwork: proxy.isNetwork }).toEqual({ status: 502, code: undefined, isNetwork: false });
  });

  it("keeps the position of a refused segment expression, and none when the server gave -1", () => {
    const error = dashboardApiErrorFrom({ kind: "http", status: 400, statusText: "Bad Request", error: { code: "segment_syntax", message: "Erro na posição 15.", position: 14 } });
    expect(error.position).toBe(14);
    const nowhere = dashboardApiErrorFrom({ kind: "http", status: 400, statusText: "Bad Request", error: { code: "segment_too_long", message: "Longa.", position: -1 } });
    expect(nowhere.position).toBeUndefined();
  });
});
