import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import type { LookupFunction, Socket } from "node:net";
import tls, { type TLSSocket } from "node:tls";
import { buildConnector } from "undici";
import { isIpLiteral, isPublicAddress, stripBrackets } from "./address-policy.js";
import { BlockedAddressError } from "./transport-error.js";

export interface GuardOptions {
  readonly allowPrivateAddresses: boolean;
  readonly connectTimeoutMs: number;
  readonly ca?: string | Buffer | Array<string | Buffer>;
  /** Name resolution; tests inject one to point a host name at 127.0.0.1. */
  readonly lookup?: LookupFunction;
  /**
   * Which addresses count as public (default `isPublicAddress`). Tests of the guard itself pass one
   * that also admits their own 127.0.0.1 server, so a redirect to another private address can be
   * refused with the guard on.
   */
  readonly isAllowedAddress?: (ip: string) => boolean;
}

/**
 * The endpoint's host was checked when the subscription was stored, but DNS can change its answer
 * since (DNS rebinding), so every connection checks again: the addresses actually resolved —
 * before connecting — and the socket's peer address once connected (which also covers IP
 * literals, for which Node skips the lookup). Loopback, private, link-local and other non-public
 * addresses are refused unless the policy allows them (tests).
 */
export function guardedLookup(options: GuardOptions): LookupFunction {
  const base: LookupFunction = options.lookup ?? (dnsLookup as unknown as LookupFunction);
  if (options.allowPrivateAddresses) return base;
  return (hostname, lookupOptions, callback) => {
    base(hostname, lookupOptions, (err, address, family) => {
      if (err) return callback(err, address, family);
      const addresses = Array.isArray(address) ? address : [{ address, family } as LookupAddress];
      // One private answer among public ones is still an attempt: refuse the whole name.
      const allowed = options.isAllowedAddress ?? isPublicAddress;
      const blocked = addresses.find((a) => !allowed(a.address));
      if (blocked !== undefined) return callback(new BlockedAddressError(blocked.address), address, family);
      callback(null, address, family);
    });
  };
}

function peerBlocked(socket: Socket, options: GuardOptions): BlockedAddressError | undefined {
  if (options.allowPrivateAddresses) return undefined;
  const remote = socket.remoteAddress;
  const allowed = options.isAllowedAddress ?? isPublicAddress;
  return remote === undefined || !allowed(remote) ? new BlockedAddressError(remote ?? "unknown") : undefined;
}

/** A TLS connection to `origin` offering HTTP/2 and HTTP/1.1 by ALPN, through the guard. */
export function connectGuardedTls(origin: URL, options: GuardOptions): Promise<TLSSocket> {
  const host = stripBrackets(origin.hostname);
  const isIp = isIpLiteral(origin.hostname);
  return new Promise<TLSSocket>((resolve, reject) => {
    const socket = tls.connect({
      host,
      port: Number(origin.port || 443),
      // SNI carries host names only (RFC 6066 §3).
      ...(isIp ? {} : { servername: host }),
      ALPNProtocols: ["h2", "http/1.1"],
      lookup: guardedLookup(options),
      ...(options.ca !== undefined ? { ca: options.ca } : {}),
    });
    const timer = setTimeout(() => {
      socket.destroy(Object.assign(new Error("connect timeout"), { code: "ETIMEDOUT" }));
    }, options.connectTimeoutMs);
    socket.once("secureConnect", () => {
      clearTimeout(timer);
      socket.removeListener("error", onError);
      const blocked = peerBlocked(socket, options);
      if (blocked !== undefined) {
        socket.destroy();
        reject(blocked);
      } else {
        socket.setNoDelay(true);
        resolve(socket);
      }
    });
    const onError = (err: Error) => {
      clearTimeout(timer);
      reject(err);
    };
    socket.once("error", onError);
  });
}

/** The same guard as an undici connector (HTTP/1.1 origins). */
export function createGuardedConnector(options: GuardOptions): buildConnector.connector {
  const base = buildConnector({
    allowH2: false,
    timeout: options.connectTimeoutMs,
    ...(options.ca !== undefined ? { ca: options.ca } : {}),
    lookup: guardedLookup(options),
  } as buildConnector.BuildOptions);
  return (connectOptions, callback) =>
    base(connectOptions, (err, socket) => {
      if (err !== null || socket === null) return callback(err ?? new Error("no socket"), null);
      const blocked = peerBlocked(socket as Socket, options);
      if (blocked !== undefined) {
        socket.destroy();
        return callback(blocked, null);
      }
      callback(null, socket);
    });
}
