import { pino, type DestinationStream, type Logger } from "pino";
import type { LogLevel } from "./config.js";

/**
 * Paths pino blanks out wherever they appear in a log object: subscription secrets, whole
 * endpoints (an endpoint is a bearer capability for its push channel), keys and credentials.
 * Handlers log an endpoint's host and the subscription id instead.
 */
export const REDACTED_PATHS = [
  "req.headers.authorization",
  "req.headers.cookie",
  "endpoint",
  "auth",
  "p256dh",
  "privateKey",
  "keys",
  "*.endpoint",
  "*.auth",
  "*.p256dh",
  "*.privateKey",
  "*.keys",
];

/** JSON logs to stdout (or `destination`, e.g. a test capturing them). */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const options = { level, redact: { paths: REDACTED_PATHS, censor: "[redacted]" } };
  return destination === undefined ? pino(options) : pino(options, destination);
}
