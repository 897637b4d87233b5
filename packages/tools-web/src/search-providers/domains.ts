import { fail, type ToolFailure } from "@agentool/contract";
import type { SearchRequest, SearchResult } from "./types.js";

/** Most host names in `allowed_domains` or `blocked_domains`. */
export const MAX_SEARCH_DOMAINS = 20;

/** The domain limits of one search, checked and normalised (lower case, punycode, no final dot). */
export interface DomainLimits {
  /** Only results from these hosts or their subdomains; empty for any. */
  allowed: string[];
  /** Never results from these hosts or their subdomains. */
  blocked: string[];
}

const HOST_NAME =
  /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

/** The host of a URL-like entry (`https://docs.python.org/3/`, `//x.org`), if it has one. */
function hostOf(value: string): string | undefined {
  try {
    return new URL(value.startsWith("//") ? `https:${value}` : value).hostname || undefined;
  } catch {
    return undefined;
  }
}

/** Checks one entry: a bare host name, or why not and what to send instead. */
function checkEntry(field: string, index: number, entry: string): string | ToolFailure {
  const value = entry.trim().toLowerCase().replace(/\.$/, "");
  const refuse = (problem: string, fix: string) =>
    fail("INVALID_INPUT", `${field}[${index}] ${JSON.stringify(entry)} ${problem}.`, {
      hint: `Send bare host names such as ${fix}; subdomains are included.`,
    });
  if (value === "") return refuse("is empty", '"example.com"');
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(value) || value.startsWith("//")) {
    const host = hostOf(value);
    return refuse("is a URL, not a host name", JSON.stringify(host ?? "example.com"));
  }
  if (value.includes("*")) {
    const base = value.replace(/^[*.]+/, "").replace(/\*.*$/, "");
    return refuse(
      "has a wildcard",
      `${JSON.stringify(base || "example.com")} (it covers every subdomain)`,
    );
  }
  if (/[/?#]/.test(value)) {
    return refuse("has a path", JSON.stringify(value.split(/[/?#]/)[0] || "example.com"));
  }
  if (value.includes(":") || /\s/.test(value)) {
    return refuse("is not a host name", JSON.stringify(value.split(/[:\s]/)[0] || "example.com"));
  }
  let ascii: string;
  try {
    ascii = new URL(`http://${value}/`).hostname;
  } catch {
    return refuse("is not a host name", '"example.com"');
  }
  if (!HOST_NAME.test(ascii)) return refuse("is not a host name", '"example.com"');
  return ascii;
}

/** Whether a host is a domain or one of its subdomains (`docs.example.com` is in `example.com`). */
export function isWithinDomain(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

/**
 * Checks `allowed_domains` / `blocked_domains`: bare host names only (a URL, a path, a port or a
 * wildcard is refused with the host name to send instead), lower-cased, punycode, duplicates
 * dropped. Both lists may be sent together unless a blocked domain covers an allowed one.
 *
 * @param allowed - the model's `allowed_domains`
 * @param blocked - the model's `blocked_domains`
 * @returns the limits, or `INVALID_INPUT` naming the entry and the fix
 */
export function checkDomainLimits(
  allowed: readonly string[] | undefined,
  blocked: readonly string[] | undefined,
): DomainLimits | ToolFailure {
  const limits: DomainLimits = { allowed: [], blocked: [] };
  for (const [field, list, into] of [
    ["allowed_domains", allowed, limits.allowed],
    ["blocked_domains", blocked, limits.blocked],
  ] as const) {
    for (const [index, entry] of (list ?? []).entries()) {
      const checked = checkEntry(field, index, entry);
      if (typeof checked !== "string") return checked;
      if (!into.includes(checked)) into.push(checked);
    }
  }
  for (const domain of limits.blocked) {
    const covered = limits.allowed.find((host) => isWithinDomain(host, domain));
    if (covered === undefined) continue;
    return fail(
      "INVALID_INPUT",
      `blocked_domains "${domain}" also blocks allowed_domains "${covered}": no result could be both.`,
      {
        hint: "Drop one of them; to allow a site but not one of its subdomains, allow the site and block the subdomain.",
      },
    );
  }
  return limits;
}

/**
 * The results within the limits: from an allowed domain (when any is given) and from no blocked
 * one, subdomains included.
 *
 * @param results - the provider's results
 * @param limits - the checked limits
 * @returns the results kept and how many were left out
 */
export function filterByDomain(
  results: readonly SearchResult[],
  limits: DomainLimits,
): { results: SearchResult[]; leftOut: number } {
  const kept = results.filter((result) => {
    const host = hostOf(result.url)?.replace(/\.$/, "");
    if (host === undefined) return false;
    if (limits.blocked.some((domain) => isWithinDomain(host, domain))) return false;
    return (
      limits.allowed.length === 0 || limits.allowed.some((domain) => isWithinDomain(host, domain))
    );
  });
  return { results: kept, leftOut: results.length - kept.length };
}

/**
 * The domain limits a provider received.
 *
 * @param request - the search request
 * @returns its allowed and blocked domains (empty lists when none)
 */
export function domainLimitsOf(request: SearchRequest): DomainLimits {
  return {
    allowed: [...(request.allowedDomains ?? [])],
    blocked: [...(request.blockedDomains ?? [])],
  };
}

/**
 * Appends `site:` operators to a query, as Google (Serper), Brave and SearXNG's web engines read
 * them: `site:a.org OR site:b.org` for the allowed domains, `-site:c.org` for each blocked one.
 * With `maxLength` (Brave takes 400 characters), the allowed operators are added only all
 * together and the blocked ones while they fit; what does not fit is left to the filter.
 *
 * @param query - the query
 * @param limits - the checked limits
 * @param maxLength - the engine's query length limit, if any
 * @returns the query with operators
 */
export function withSiteOperators(
  query: string,
  limits: DomainLimits,
  maxLength = Number.POSITIVE_INFINITY,
): string {
  let out = query;
  const allowed = limits.allowed.map((domain) => `site:${domain}`).join(" OR ");
  if (allowed !== "" && out.length + 1 + allowed.length <= maxLength) out += ` ${allowed}`;
  for (const domain of limits.blocked) {
    const operator = ` -site:${domain}`;
    if (out.length + operator.length <= maxLength) out += operator;
  }
  return out;
}

/**
 * The words a rendered result list adds for domain limits: `, only example.com`,
 * `, not pinterest.com`, and how many results from other sites were left out.
 *
 * @param data - the search data's domain fields
 * @returns the words (empty without limits)
 */
export function describeDomainLimits(data: {
  allowed_domains?: readonly string[];
  blocked_domains?: readonly string[];
  filtered_out?: number;
}): string {
  const parts: string[] = [];
  if (data.allowed_domains?.length) parts.push(`only ${data.allowed_domains.join(", ")}`);
  if (data.blocked_domains?.length) parts.push(`not ${data.blocked_domains.join(", ")}`);
  if (data.filtered_out) parts.push(`${data.filtered_out} from other sites left out`);
  return parts.length === 0 ? "" : `, ${parts.join("; ")}`;
}
