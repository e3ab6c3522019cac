import ipaddr from "ipaddr.js";

/**
 * True when `ip` is an ordinary public unicast address. Loopback, private (RFC 1918, ULA),
 * link-local, CGNAT, multicast, reserved and unspecified ranges are not; an IPv4-mapped IPv6
 * address is judged by the IPv4 address inside it. A push endpoint is attacker-controlled input,
 * so the server must never be made to send to its own network.
 */
export function isPublicAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return false;
  let addr = ipaddr.parse(ip);
  if (addr.kind() === "ipv6") {
    const v6 = addr as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) addr = v6.toIPv4Address();
  }
  return addr.range() === "unicast";
}

/** True when `host` (as in `URL.hostname`, IPv6 in brackets or not) is an IP literal. */
export function isIpLiteral(host: string): boolean {
  // Every IPv4 form ipaddr.js takes (dotted, octal, 0x hex, one to four parts) is spelled with hex
  // digits, "x" and dots, and every IPv6 one has a colon: a host name such as fcm.googleapis.com is
  // answered here, without the parser's attempts (a measurable share of each registration's CPU).
  if (!host.includes(":") && NOT_IPV4_CHARACTER.test(host)) return false;
  return ipaddr.isValid(stripBrackets(host));
}

const NOT_IPV4_CHARACTER = /[^0-9a-fx.]/i;

export function stripBrackets(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}
