import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { reply } from "./reply.js";

function digest(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}

/**
 * The host as it stands in a URL (an IPv6 address in brackets).
 *
 * @param host - a host name or address
 * @returns the URL form
 */
export function hostForUrl(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

/**
 * The guard every HTTP request passes first: its Host header must name this server (403 — the
 * DNS-rebinding defence), its Origin, when it has one, must be allowed (403), and it must carry
 * the bearer token (401 with `WWW-Authenticate: Bearer`; compared in constant time) unless the
 * server runs without one.
 */
export class RequestGuard {
  readonly #host: string;
  readonly #extraOrigins: readonly string[];
  readonly #expectedToken: Buffer | undefined;
  #allowedHosts = new Set<string>();
  #allowedOrigins = new Set<string>();

  /**
   * @param host - the bound address, also accepted in the Host header
   * @param allowOrigins - origins allowed besides the loopback ones of the bound port
   * @param token - the bearer token, or `undefined` to serve without one
   */
  constructor(host: string, allowOrigins: readonly string[], token: string | undefined) {
    this.#host = host;
    this.#extraOrigins = allowOrigins;
    this.#expectedToken = token === undefined ? undefined : digest(token);
  }

  /**
   * Accepts the Host headers and Origins of the bound port (known once listening).
   *
   * @param port - the bound port
   */
  allow(port: number): void {
    this.#allowedHosts = new Set(
      ["127.0.0.1", "localhost", "[::1]", hostForUrl(this.#host)].map(
        (name) => `${name.toLowerCase()}:${port}`,
      ),
    );
    this.#allowedOrigins = new Set([
      `http://127.0.0.1:${port}`,
      `http://localhost:${port}`,
      ...this.#extraOrigins,
    ]);
  }

  /**
   * Checks a request and answers 403 or 401 when it may not pass.
   *
   * @param request - the request
   * @param response - where a refusal goes
   * @returns whether the request may be served
   */
  admit(request: IncomingMessage, response: ServerResponse): boolean {
    const hostHeader = (request.headers.host ?? "").toLowerCase();
    if (!this.#allowedHosts.has(hostHeader)) {
      reply(
        response,
        403,
        `Forbidden: the Host header ${JSON.stringify(request.headers.host ?? "")} does not name this server.`,
      );
      return false;
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !this.#allowedOrigins.has(origin)) {
      reply(
        response,
        403,
        `Forbidden: the Origin ${JSON.stringify(origin)} is not allowed (start the server with --allow-origin ${origin} to allow it).`,
      );
      return false;
    }
    const auth = this.#authorized(request);
    if (auth === "ok") return true;
    reply(
      response,
      401,
      auth === "missing"
        ? "Unauthorized: send Authorization: Bearer <token> (the token agentool-mcp printed, or AGENTOOL_MCP_TOKEN)."
        : "Unauthorized: the bearer token is wrong.",
      {
        "www-authenticate":
          auth === "missing"
            ? 'Bearer realm="agentool-mcp"'
            : 'Bearer realm="agentool-mcp", error="invalid_token"',
      },
    );
    return false;
  }

  #authorized(request: IncomingMessage): "missing" | "wrong" | "ok" {
    if (this.#expectedToken === undefined) return "ok";
    const header = request.headers.authorization;
    if (header === undefined) return "missing";
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (match === null) return "missing";
    return timingSafeEqual(digest(match[1] as string), this.#expectedToken) ? "ok" : "wrong";
  }
}
