import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import type { LookupFunction, Socket } from "node:net";
import { buildConnector } from "undici";
import { isPublicAddress } from "./address-policy.js";
import { BlockedAddressError } from "./transport-error.js";

export interface GuardedConnectorOptions {
  readonly allowPrivateAddresses: boolean;
  readonly connectTimeoutMs: number;
  readonly ca?: string | Buffer | Array<string | Buffer>;
  /** Name resolution; tests inject one to point a host name at 127.0.0.1. */
  readonly lookup?: LookupFunction;
}

/**
 * An undici connector that refuses to talk to loopback, private, link-local and other non-public
 * addresses. The endpoint's host was checked when the subscription was stored, but DNS can change
 * its answer since (DNS rebinding), so the check is repeated on the addresses actually resolved —
 * before connecting — and on the socket's peer address once connected (which also covers IP
 * literals, for which Node skips the lookup).
 */
export function createGuardedConnector(options: GuardedConnectorOptions): buildConnector.connector {
  const baseLookup: LookupFunction = options.lookup ?? (dnsLookup as unknown as LookupFunction);
  const lookup: LookupFunction = options.allowPrivateAddresses
    ? baseLookup
    : (hostname, lookupOptions, callback) => {
        baseLookup(hostname, lookupOptions, (err, address, family) => {
          if (err) return callback(err, address, family);
          const addresses = Array.isArray(address) ? address : [{ address, family } as LookupAddress];
          // One private answer among public ones is still an attempt: refuse the whole name.
          const blocked = addresses.find((a) => !isPublicAddress(a.address));
          if (blocked !== undefined) {
            return callback(new BlockedAddressError(blocked.address), address, family);
          }
          callback(null, address, family);
        });
      };

  const base = buildConnector({
    allowH2: true,
    timeout: options.connectTimeoutMs,
    ...(options.ca !== undefined ? { ca: options.ca } : {}),
    lookup,
  } as buildConnector.BuildOptions);

  return (connectOptions, callback) =>
    base(connectOptions, (err, socket) => {
      if (err !== null) return callback(err, null);
      const remote = (socket as Socket).remoteAddress;
      if (!options.allowPrivateAddresses && (remote === undefined || !isPublicAddress(remote))) {
        socket.destroy();
        return callback(new BlockedAddressError(remote ?? "unknown"), null);
      }
      callback(null, socket);
    });
}
