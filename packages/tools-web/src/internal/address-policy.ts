import * as ipaddrNamespace from "ipaddr.js";
import { WebRequestError } from "./http-transport.js";

// ipaddr.js is CommonJS with `export =`: Node exposes it as the default export only.
const ipaddr = ((ipaddrNamespace as unknown as { default?: typeof ipaddrNamespace }).default ??
  ipaddrNamespace) as typeof ipaddrNamespace;
type IPv4 = ipaddrNamespace.IPv4;
type IPv6 = ipaddrNamespace.IPv6;

/** Cloud metadata addresses, refused even with `allowPrivate` (only `allowHosts` lets them through). */
export const CLOUD_METADATA_ADDRESSES: readonly string[] = [
  "169.254.169.254", // AWS, GCP, Azure, OpenStack, DigitalOcean…
  "169.254.170.2", // AWS ECS task metadata
  "169.254.169.253", // AWS DNS
  "100.100.100.200", // Alibaba Cloud
  "192.0.0.192", // Oracle Cloud
  "fd00:ec2::254", // AWS IPv6
  "fd00:ec2::23", // AWS IPv6 DNS
  "169.254.0.23", // Tencent Cloud
  "169.254.170.23", // AWS EKS Pod Identity agent
  "168.63.129.16", // Azure WireServer (a public address: refused even without allowPrivate)
];

/** Host names refused by name, before any DNS lookup (plus every `*.localhost`). */
export const BLOCKED_HOST_NAMES: readonly string[] = [
  "localhost",
  "metadata.google.internal",
  "metadata.goog",
  "metadata",
  "instance-data",
  "instance-data.ec2.internal",
  "metadata.azure.internal",
  "metadata.tencentyun.com",
];

/** How an address was judged. */
export interface AddressVerdict {
  /** Whether it may be connected to. */
  allowed: boolean;
  /** The ipaddr.js range name (`"unicast"`, `"loopback"`, `"private"`, …) or `"metadata"` / `"invalid"`. */
  range: string;
}

const PRIVATE_RANGES = new Set([
  "private",
  "loopback",
  "linkLocal",
  "carrierGradeNat",
  "uniqueLocal",
]);
const METADATA = new Set(
  CLOUD_METADATA_ADDRESSES.map((address) => ipaddr.parse(address).toNormalizedString()),
);

/**
 * The IPv4 address an IPv6 one carries: NAT64 (`64:ff9b::a.b.c.d`), 6to4 (`2002:AABB:CCDD::`) and
 * IPv4-compatible (`::a.b.c.d`, deprecated, which the URL parser writes `::7f00:1`; `::` and
 * `::1` are ranges of their own). IPv4-mapped addresses are already unwrapped by `ipaddr.process`.
 */
function embeddedIpv4(address: IPv6, range: string): IPv4 | undefined {
  const bytes = address.toByteArray();
  if (range === "rfc6052") return new ipaddr.IPv4(bytes.slice(12, 16));
  if (range === "6to4") return new ipaddr.IPv4(bytes.slice(2, 6));
  const compatible = range === "unicast" && bytes.slice(0, 12).every((byte) => byte === 0);
  if (compatible) return new ipaddr.IPv4(bytes.slice(12, 16));
  return undefined;
}

/**
 * Judges one IP address: only global unicast passes by default. Private (10/8, 172.16/12,
 * 192.168/16), loopback, link-local, CGNAT (100.64/10), unique-local (fc00::/7), multicast,
 * broadcast, unspecified, reserved and documentation ranges are refused; IPv4-mapped
 * (`::ffff:a.b.c.d`), IPv4-compatible (`::a.b.c.d`, hex `::7f00:1`), NAT64 and 6to4 addresses
 * are judged by the IPv4 address inside; Teredo, IPv4-translated (`::ffff:0:a.b.c.d`) and other
 * tunnels are refused; cloud metadata addresses are refused even with `allowPrivate`.
 *
 * @param address - an IPv4 or IPv6 address (brackets allowed)
 * @param options - `allowPrivate` lifts private, loopback, link-local, CGNAT and unique-local
 * @returns the verdict
 * @example
 * judgeAddress("127.0.0.1"); // { allowed: false, range: "loopback" }
 * judgeAddress("::ffff:7f00:1"); // { allowed: false, range: "loopback" }
 * judgeAddress("::7f00:1"); // { allowed: false, range: "loopback" } (IPv4-compatible)
 */
export function judgeAddress(
  address: string,
  options: { allowPrivate?: boolean } = {},
): AddressVerdict {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (!ipaddr.isValid(bare)) return { allowed: false, range: "invalid" };
  let parsed: IPv4 | IPv6 = ipaddr.process(bare);
  let range = parsed.range();
  if (parsed.kind() === "ipv6") {
    const inner = embeddedIpv4(parsed as IPv6, range);
    if (inner !== undefined) {
      parsed = inner;
      range = inner.range();
    }
  }
  if (METADATA.has(parsed.toNormalizedString())) return { allowed: false, range: "metadata" };
  if (range === "unicast") return { allowed: true, range };
  if (options.allowPrivate === true && PRIVATE_RANGES.has(range)) return { allowed: true, range };
  return { allowed: false, range };
}

/**
 * Normalises a host name for comparison: lower case, no brackets, no trailing dot(s).
 *
 * @param host - a host name or IP literal
 * @returns the normalised form
 */
export function normalizeHost(host: string): string {
  return host
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.+$/, "");
}

/** A parsed `allowHosts` entry. */
interface AllowEntry {
  host: string;
  wildcard: boolean;
  port: string | undefined;
}

/**
 * Parses `allowHosts` entries: `"example.com"`, `"*.example.com"`, `"127.0.0.1:8080"`, `"[::1]:3000"`, `"::1"`.
 *
 * @param entries - the host's allow list
 * @returns a matcher `(hostname, port?) => boolean`; without a port it matches on the name alone
 */
export function createHostMatcher(
  entries: readonly string[],
): (hostname: string, port?: string) => boolean {
  const parsed: AllowEntry[] = entries.map((entry) => {
    const text = entry.trim().toLowerCase();
    let host = text;
    let port: string | undefined;
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
    if (bracketed) {
      host = bracketed[1] ?? "";
      port = bracketed[2];
    } else if (/^[^:]+:\d+$/.test(text)) {
      const index = text.lastIndexOf(":");
      host = text.slice(0, index);
      port = text.slice(index + 1);
    }
    const wildcard = host.startsWith("*.");
    if (ipaddr.isValid(host)) host = ipaddr.parse(host).toNormalizedString();
    return { host: normalizeHost(wildcard ? host.slice(2) : host), wildcard, port };
  });
  return (hostname, port) => {
    let host = normalizeHost(hostname);
    if (ipaddr.isValid(host)) host = ipaddr.parse(host).toNormalizedString();
    return parsed.some(
      (entry) =>
        (entry.wildcard ? host.endsWith(`.${entry.host}`) : host === entry.host) &&
        (entry.port === undefined || port === undefined || entry.port === port),
    );
  };
}

/**
 * Tells whether a host name is refused by name: `localhost`, any `*.localhost`, and the cloud
 * metadata names (`metadata.google.internal`, …). Trailing dots are ignored.
 *
 * @param hostname - the URL's host name
 * @returns `"local"` (this machine; allowed with `allowPrivate`), `"metadata"` (always refused) or `undefined`
 */
export function isBlockedHostName(hostname: string): "local" | "metadata" | undefined {
  const host = normalizeHost(hostname);
  if (host === "localhost" || host.endsWith(".localhost")) return "local";
  return BLOCKED_HOST_NAMES.includes(host) ? "metadata" : undefined;
}

/**
 * Tells whether a host (from a URL) is an IP literal.
 *
 * @param hostname - the URL's host name (IPv6 in brackets)
 * @returns `true` for an IP literal
 */
export function isIpLiteral(hostname: string): boolean {
  return ipaddr.isValid(normalizeHost(hostname));
}

/** The address policy of a transport: what {@link createUrlPolicy} takes. */
export interface AddressPolicyOptions {
  /** Let requests reach private, loopback, link-local, CGNAT and unique-local addresses (and `localhost`). Default `false`. Cloud metadata stays refused. */
  allowPrivate?: boolean;
  /** Hosts reachable whatever they are: `"intranet.example"`, `"*.corp.example"`, `"127.0.0.1:8080"`. Default none. */
  allowHosts?: readonly string[];
}

/**
 * The BLOCKED failure of an address the policy refuses.
 *
 * @param what - the host as written
 * @param why - why it is refused
 * @returns the error to throw
 */
export function blockedAddress(what: string, why: string): WebRequestError {
  return new WebRequestError("BLOCKED", `${what} is not reachable: ${why}.`, {
    hint: "Only public internet addresses can be fetched. If the user needs a local or internal service, the host must allow it (allowHosts or allowPrivate).",
    retryable: false,
  });
}

/**
 * A check of one URL against the policy, with no DNS lookup (runtime-neutral): only `http:` /
 * `https:`; `localhost`, `*.localhost` and metadata names refused by name; IP literals in every
 * spelling the URL parser normalises (decimal, octal, hex IPv4, `[::ffff:127.0.0.1]`,
 * `[::127.0.0.1]`, NAT64, 6to4…)
 * judged by {@link judgeAddress}. A name that merely *resolves* to a private address passes here:
 * only a transport that sees the connected address (the Node guarded transport) can refuse it.
 *
 * @param options - `allowPrivate` and `allowHosts`
 * @returns `(url) => void`, throwing a `BLOCKED` {@link WebRequestError}
 * @example
 * const check = createUrlPolicy();
 * check(new URL("http://127.0.0.1/")); // throws BLOCKED
 */
export function createUrlPolicy(options: AddressPolicyOptions = {}): (url: URL) => void {
  const allowPrivate = options.allowPrivate === true;
  const allowed = createHostMatcher(options.allowHosts ?? []);
  return (url) => {
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new WebRequestError(
        "BLOCKED",
        `Only http: and https: URLs can be fetched, not ${url.protocol}.`,
        { hint: "Use an http(s) URL." },
      );
    }
    const hostname = normalizeHost(url.hostname);
    const port = url.port || (url.protocol === "https:" ? "443" : "80");
    if (allowed(hostname, port)) return;
    const named = isBlockedHostName(hostname);
    if (named === "metadata") throw blockedAddress(url.host, "it names a cloud metadata service");
    if (named === "local" && !allowPrivate) throw blockedAddress(url.host, "it names this machine");
    if (isIpLiteral(hostname)) {
      const verdict = judgeAddress(hostname, { allowPrivate });
      if (!verdict.allowed)
        throw blockedAddress(url.host, `${hostname} is a ${verdict.range} address`);
      return;
    }
    if (allowed(hostname)) {
      // the name is allowed on another port only
      throw blockedAddress(url.host, `only other ports of ${hostname} are allowed`);
    }
  };
}
