import { AgentoolError, fail, type ToolFailure } from "@agentool/contract";
import { httpUrl } from "../internal/text.js";

/** How a keyed provider finds its endpoint when a search runs. */
export interface ResolvedEndpoint {
  /** The absolute URL to request, or the failure to return when a relative endpoint has no base. */
  (): { url: string } | { failure: ToolFailure };
}

/** A relative reference the providers accept: a path from the origin (`/api/serper`) or from the page (`./api`, `../api`). */
const RELATIVE = /^(?:\/(?!\/)|\.\.?\/)/;

function globalLocationHref(): string | undefined {
  const location = (globalThis as { location?: { href?: unknown } }).location;
  return typeof location?.href === "string" ? httpUrl(location.href) : undefined;
}

/**
 * Reads a provider's `endpoint` (and `origin`) option. An absolute http(s) URL is used as is. A
 * relative one (`/api/serper`, a same-origin route of a browser app) is resolved with
 * `new URL(endpoint, base)` when each search runs, where `base` is the `origin` option or, without
 * it, `globalThis.location.href` (a browser-like host). With neither, the search fails with
 * `NOT_CONFIGURED` naming the fix. Anything else (another scheme, not a URL) throws at set-up.
 *
 * @internal
 */
export function resolveEndpointOption(
  owner: string,
  endpoint: unknown,
  origin: unknown,
  defaultEndpoint: string,
  provider: string,
): ResolvedEndpoint {
  let base: string | undefined;
  if (origin !== undefined) {
    base = httpUrl(origin);
    if (base === undefined) {
      throw new AgentoolError(
        `${owner}: \`origin\` must be an absolute http(s) URL such as "https://my.app" (the base of a relative endpoint).`,
      );
    }
  }
  if (endpoint === undefined) return () => ({ url: defaultEndpoint });
  const absolute = httpUrl(endpoint);
  if (absolute !== undefined) return () => ({ url: absolute });
  let relative = false;
  if (typeof endpoint === "string" && RELATIVE.test(endpoint) && !/\s/.test(endpoint)) {
    try {
      new URL(endpoint, "http://relative.invalid/");
      relative = true;
    } catch {
      relative = false;
    }
  }
  if (!relative) {
    throw new AgentoolError(
      `${owner}: \`endpoint\` must be an absolute http(s) URL, or a relative one starting with /, ./ or ../ such as "/api/search" (resolved against \`origin\` or, in a browser, the page's location).`,
    );
  }
  const path = endpoint as string;
  return () => {
    const from = base ?? globalLocationHref();
    if (from === undefined) {
      return {
        failure: fail(
          "NOT_CONFIGURED",
          `The ${provider} search endpoint "${path}" is relative and there is nothing to resolve it against (no origin option, no page location).`,
          {
            hint: "Ask the host to give the provider an absolute endpoint or an `origin` (relative endpoints resolve on their own only in a browser).",
            retryable: false,
          },
        ),
      };
    }
    return { url: new URL(path, from).href };
  };
}

/** Checks the key and endpoint of a keyed provider at set-up time. */
export function checkKeyedOptions(
  owner: string,
  options: { apiKey?: unknown; endpoint?: unknown; origin?: unknown } | undefined,
  defaultEndpoint: string,
  provider: string,
): { apiKey: string; endpoint: ResolvedEndpoint } {
  if (typeof options?.apiKey !== "string" || options.apiKey.trim().length === 0) {
    throw new AgentoolError(
      `${owner}: \`apiKey\` is required (the provider's key, or your gateway's token). It is host configuration, never model input.`,
    );
  }
  return {
    apiKey: options.apiKey,
    endpoint: resolveEndpointOption(
      owner,
      options.endpoint,
      options.origin,
      defaultEndpoint,
      provider,
    ),
  };
}
