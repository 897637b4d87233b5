import { isIPv4, isIPv6 } from "node:net";

/**
 * Whether a host the HTTP server may bind to is a loopback address — reachable from this machine
 * only: `localhost`, any IPv4 address in 127.0.0.0/8, `::1` (also written in full, in brackets,
 * or as the IPv4-mapped `::ffff:127.x.y.z`). Names other than `localhost` are not resolved: a
 * name could point anywhere, so it does not count.
 *
 * @param host - the address as `--host` gave it
 * @returns `true` for a loopback address
 * @example
 * isLoopbackHost("127.0.0.1"); // true
 * isLoopbackHost("[::1]"); // true
 * isLoopbackHost("0.0.0.0"); // false
 */
export function isLoopbackHost(host: string): boolean {
  const name = host.trim().toLowerCase();
  if (name === "localhost") return true;
  const bare = name.startsWith("[") && name.endsWith("]") ? name.slice(1, -1) : name;
  if (isIPv4(bare)) return bare.split(".")[0] === "127";
  if (!isIPv6(bare)) return false;
  const mapped = /^(?:0{0,4}:){0,4}:?(?:0{0,4}:)?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
  if (mapped !== null) return isIPv4(mapped[1] as string) && mapped[1]?.split(".")[0] === "127";
  return expandIPv6(bare) === "0000:0000:0000:0000:0000:0000:0000:0001";
}

/** An IPv6 address (valid, without an embedded IPv4 part) with every group written out. */
function expandIPv6(address: string): string {
  const [head = "", tail] = address.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array.from({ length: missing }, () => "0"), ...right]
    .map((group) => group.padStart(4, "0"))
    .join(":");
}
