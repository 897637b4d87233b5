import { fail, type ToolFailure } from "@agentool/contract";
import { type ForwardOption, forwardUrl } from "../internal/forward.js";
import type { HttpTransport } from "../internal/http-transport.js";
import { decodeBody } from "../internal/request.js";
import {
  checkRobots,
  parseRobotsTxt,
  productToken,
  type RobotsRule,
  type RobotsTxt,
} from "../internal/robots-txt.js";
import { TtlCache } from "../internal/ttl-cache.js";

/** Most bytes of a robots.txt read: RFC 9309 asks parsers to take at least 500 KiB. */
export const ROBOTS_MAX_BYTES = 512 * 1_024;

/** How long a robots.txt is kept per origin: 1 hour (RFC 9309 allows up to 24). */
export const ROBOTS_CACHE_TTL_MS = 60 * 60_000;

/** Most origins whose robots.txt is kept. */
const ROBOTS_CACHE_ENTRIES = 256;

/** What the gate needs from web_fetch's settings. */
export interface RobotsGateSettings {
  /** The tool's name, for messages. */
  name: string;
  /** Sends the request (the same guarded transport as every page). */
  transport: HttpTransport;
  /** Where reads are forwarded, if anywhere. */
  forward: ForwardOption | undefined;
  /** The request headers for a URL. */
  headersFor: (url: string) => Record<string, string>;
  /** The User-Agent, whose product token picks the group. */
  userAgent: string;
}

/** A robots.txt as known for one origin: its rules, or none (absent, 4xx, unreachable). */
type OriginRobots = { robots: RobotsTxt; url: string } | { robots: undefined };

/**
 * Obeys robots.txt for the model's URLs: fetches `/robots.txt` of each origin through web_fetch's
 * own transport (the same address policy, proxy and caps), keeps it per origin for
 * {@link ROBOTS_CACHE_TTL_MS}, and refuses a disallowed URL with `BLOCKED` naming the rule line
 * and its user-agent group. After RFC 9309: a 4xx (404, 401, 403, 429…) means no rules; a 5xx
 * means the whole site is disallowed (not cached, so a later call asks again); an unreachable
 * robots.txt is treated as absent, so the page's own fetch reports the network failure.
 */
export class RobotsGate {
  readonly #settings: RobotsGateSettings;
  readonly #token: string;
  readonly #cache = new TtlCache<OriginRobots>(ROBOTS_CACHE_TTL_MS, ROBOTS_CACHE_ENTRIES);

  /**
   * @param settings - the transport, proxy, headers and User-Agent
   */
  constructor(settings: RobotsGateSettings) {
    this.#settings = settings;
    this.#token = productToken(settings.userAgent) || "*";
  }

  /**
   * Checks one URL against its origin's robots.txt.
   *
   * @param url - the model's URL (cleaned)
   * @param signal - the call's signal
   * @returns the refusal, or `undefined` when the URL may be fetched
   */
  async check(url: string, signal: AbortSignal): Promise<ToolFailure | undefined> {
    const target = new URL(url);
    const known = this.#cache.get(target.origin) ?? (await this.#load(target, signal));
    if ("failure" in known) return known.failure;
    if (known.robots === undefined) return undefined;
    const verdict = checkRobots(known.robots, this.#token, `${target.pathname}${target.search}`);
    if (verdict.tooComplex === true) {
      return fail(
        "BLOCKED",
        `${known.url} has more wildcard rules than can be checked against ${url} in time; this host obeys robots.txt, so the URL is treated as disallowed.`,
        { hint: "Use a shorter URL for the page, or another source.", retryable: false },
      );
    }
    if (verdict.allowed || verdict.rule === undefined) return undefined;
    return this.#refusal(url, known.url, verdict.rule);
  }

  async #load(target: URL, signal: AbortSignal): Promise<OriginRobots | { failure: ToolFailure }> {
    const robotsUrl = `${target.origin}/robots.txt`;
    let response: Awaited<ReturnType<HttpTransport>>;
    try {
      const requested = forwardUrl(this.#settings.forward, robotsUrl);
      response = await this.#settings.transport({
        url: requested,
        headers: this.#settings.headersFor(requested),
        signal,
        maxBytes: ROBOTS_MAX_BYTES,
      });
    } catch {
      // Unreachable (or refused): no rules; the page's own request reports what is wrong.
      return { robots: undefined };
    }
    if (response.status >= 500) {
      return {
        failure: fail(
          "BLOCKED",
          `${robotsUrl} answered HTTP ${response.status}; this host obeys robots.txt, and under RFC 9309 a server error there means the whole site is disallowed for now.`,
          { hint: "Try again later, or use another source.", retryable: true },
        ),
      };
    }
    let known: OriginRobots = { robots: undefined };
    if (response.status >= 200 && response.status < 300) {
      let text = decodeBody(response.body, response.headers["content-type"] ?? "");
      // A file cut by the cap loses its last, perhaps partial, line.
      if (response.truncated) text = text.slice(0, Math.max(0, text.lastIndexOf("\n")));
      known = { robots: parseRobotsTxt(text), url: robotsUrl };
    }
    this.#cache.set(target.origin, known);
    return known;
  }

  #refusal(url: string, robotsUrl: string, rule: RobotsRule): ToolFailure {
    return fail(
      "BLOCKED",
      `${url} is disallowed by ${robotsUrl}: line ${rule.line} "${rule.text}" in the group of line ${rule.group.line} "${rule.group.text}".`,
      {
        hint: `This host has ${this.#settings.name} obey robots.txt, so the page cannot be read; use another source, or ask the user for its content.`,
        retryable: false,
      },
    );
  }
}
