import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "./database-unavailable.js";

function withCode(code: string, message = "x"): Error {
  return Object.assign(new Error(message), { code });
}

describe("isDatabaseUnavailable", () => {
  it.each([
    ["pg_terminate_backend (57P01)", withCode("57P01", "terminating connection due to administrator command")],
    ["the server starting up (57P03)", withCode("57P03")],
    ["a connection exception (08006)", withCode("08006")],
    ["a refused connection", withCode("ECONNREFUSED")],
    ["a reset connection", withCode("ECONNRESET")],
    ["node-postgres's dropped connection", new Error("Connection terminated unexpectedly")],
    ["node-postgres's connect timeout", new Error("timeout exceeded when trying to connect")],
    ["a refusal on every address", new AggregateError([withCode("ECONNREFUSED"), withCode("ECONNREFUSED")])],
    ["a wrapped cause", new Error("query failed", { cause: withCode("57P01") })],
    ["SQLite's busy lock", withCode("SQLITE_BUSY")],
  ])("is true for %s", (_what, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ["a syntax error (42601)", withCode("42601")],
    ["a unique violation (23505)", withCode("23505")],
    ["a wrong password (28P01)", withCode("28P01")],
    ["a SQLite constraint", withCode("SQLITE_CONSTRAINT_UNIQUE")],
    ["a plain bug", new TypeError("cannot read properties of undefined")],
    ["not an error", "ECONNREFUSED"],
  ])("is false for %s", (_what, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
