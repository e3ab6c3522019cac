/** How a request failed without an HTTP response. */
export type TransportErrorKind =
  | "timeout"
  | "reset"
  | "refused"
  | "dns"
  | "tls"
  | "network"
  /** The endpoint resolved to, or connected to, a loopback/private address the policy forbids. */
  | "blocked_address"
  /** The endpoint is not one the policy lets the server send to (host not allowed, not https). */
  | "blocked_endpoint";

/** Raised by the guarded connector; recognised by its code when undici hands it back. */
export class BlockedAddressError extends Error {
  override readonly name = "BlockedAddressError";
  readonly code = "SINO_BLOCKED_ADDRESS";
  constructor(readonly address: string) {
    super("push endpoint resolves to a non-public address");
  }
}

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|ERR_OSSL_)/;

/** Maps whatever undici, net, tls or dns threw onto a `TransportErrorKind`. */
export function transportErrorKind(error: unknown): TransportErrorKind {
  const err = error as { code?: unknown; name?: unknown; cause?: unknown } | null;
  if (err === null || typeof err !== "object") return "network";
  const code = typeof err.code === "string" ? err.code : "";
  const name = typeof err.name === "string" ? err.name : "";
  if (code === "SINO_BLOCKED_ADDRESS") return "blocked_address";
  if (name === "TimeoutError" || code === "UND_ERR_CONNECT_TIMEOUT" || code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT" || code === "ETIMEDOUT") {
    return "timeout";
  }
  if (code === "ECONNREFUSED") return "refused";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "EAI_FAIL") return "dns";
  if (TLS_CODE.test(code)) return "tls";
  if (
    code === "ECONNRESET" ||
    code === "EPIPE" ||
    code === "UND_ERR_SOCKET" ||
    code === "UND_ERR_CLOSED" ||
    code.startsWith("ERR_HTTP2_")
  ) {
    return "reset";
  }
  if (err.cause !== undefined && err.cause !== error) return transportErrorKind(err.cause);
  return "network";
}
