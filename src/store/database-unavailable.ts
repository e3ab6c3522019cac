/**
 * Whether an error means the database cannot be reached right now (refused, reset, terminated,
 * shutting down, or still starting), as opposed to a bad query: the server answers 503 for these
 * and the delivery lanes simply try again, while any other error stays a bug (500).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const code = "code" in error && typeof error.code === "string" ? error.code : "";
  // SQLSTATE class 08 (connection exception) and 57P01-57P03: admin shutdown (what
  // pg_terminate_backend sends), crash shutdown, cannot connect now (starting up or recovering).
  if (/^08[0-9A-Z]{3}$/.test(code) || code === "57P01" || code === "57P02" || code === "57P03") return true;
  if (NETWORK_CODES.has(code)) return true;
  // SQLite: another process held the write lock past busy_timeout.
  if (code === "SQLITE_BUSY") return true;
  const message = error instanceof Error ? error.message : "";
  // node-postgres reports a dropped or unopenable connection with plain Errors and no code.
  if (PG_CONNECTION_MESSAGES.some((pattern) => pattern.test(message))) return true;
  // Some drivers wrap the cause (AggregateError for several addresses, or `cause`).
  if (error instanceof AggregateError && error.errors.some(isDatabaseUnavailable)) return true;
  return "cause" in error && error.cause !== error && isDatabaseUnavailable(error.cause);
}

const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EPIPE", "EAI_AGAIN", "ENOTFOUND"]);

const PG_CONNECTION_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /^Client has encountered a connection error and is not queryable/,
  /^Client was closed and is not queryable/,
  /^Connection ended unexpectedly/,
];
