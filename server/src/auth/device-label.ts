import { isIPv4, isIPv6 } from "node:net";
import { browserLabel } from "@tp/domain/browser-label";

/**
 * What a person would call "the device" of a sign-in, from what the server sees: the user
 * agent and the IP address. Both are only hints (either can be forged), so they decide
 * nothing about access; they label the sessions and sign-in history, and trigger the
 * new-device e-mail.
 */

/**
 * The network an address belongs to: IPv4 /24, IPv6 /48 (one site's allocation). The exact
 * address changes too often (DHCP leases, mobile carriers, IPv6 privacy addresses) to mean
 * "a new device": an e-mail on every such change would teach the trader to ignore them.
 */
export function ipNetwork(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  const address = mapped ? mapped[1]! : ip;
  if (isIPv4(address)) return `${address.split(".").slice(0, 3).join(".")}.0/24`;
  if (isIPv6(address)) return `${expandIPv6(address).slice(0, 3).join(":")}::/48`;
  return address;
}

/** The eight groups of an IPv6 address, "::" expanded, without leading zeros. */
function expandIPv6(address: string): string[] {
  const [head = "", tail] = address.toLowerCase().split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  const zeros = Array.from({ length: 8 - left.length - right.length }, () => "0");
  return [...left, ...zeros, ...right].map((group) => group.replace(/^0+(?=.)/, ""));
}

/**
 * One device: the browser and system (not their versions, which change with every update)
 * and the IP's network. A new browser, a new computer or a sign-in from another network
 * counts as new; the same laptop at home after a browser update does not.
 */
export function deviceKey(userAgent: string | undefined | null, ip: string): string {
  return `${browserLabel(userAgent)}|${ipNetwork(ip)}`;
}
