import { pino, type Logger } from "pino";
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

export function createLogger(level: LogLevel): Logger {
  return pino({ level, redact: { paths: REDACTED_PATHS, censor: "[redacted]" } });
}
