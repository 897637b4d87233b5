import { z } from "zod";
import type { HttpTransport } from "./http-transport.js";

/** A zod option for an injectable transport. */
export const transportOption = z
  .custom<HttpTransport>((value) => typeof value === "function", {
    error: "expected a transport function (request) => Promise<response>",
  })
  .optional();

/** A zod option for host headers. */
export const headersOption = z.record(z.string(), z.string()).optional();

/**
 * Lower-cases header names and adds the default User-Agent unless the host set one.
 *
 * @param headers - the host's headers
 * @param userAgent - the default User-Agent
 * @returns the headers to send
 */
export function buildHeaders(
  headers: Record<string, string> | undefined,
  userAgent: string,
): Record<string, string> {
  const out: Record<string, string> = { "user-agent": userAgent };
  for (const [key, value] of Object.entries(headers ?? {})) out[key.toLowerCase()] = value;
  return out;
}
