import { AgentoolError, type ToolOptions, toolOptionsShape } from "@agentool/contract";
import type { HttpTransport } from "@agentool/tools-web";
import { createGuardedTransport } from "@agentool/tools-web/node";
import { z } from "zod";
import { FIGMA_API_ORIGIN, FigmaClient } from "./figma-client.js";

/**
 * The options every Figma tool takes, and the client they make.
 *
 * @internal
 */

/** Default time limit of one Figma request: 30 s. */
export const DEFAULT_FIGMA_REQUEST_TIMEOUT_MS = 30_000;

/**
 * Default most bytes of one Figma JSON answer: 8 MB. Decoding, parsing and simplifying an answer
 * runs on the event loop: ~0.2–0.26 s for 8.4 MB and ~0.4–0.9 s for 20 MB on a loaded 2-core
 * machine, so a larger answer is refused (`TOO_LARGE`, naming node_id and depth) rather than
 * holding the host's loop; a host that accepts the pause can raise `maxResponseBytes`.
 */
export const DEFAULT_FIGMA_MAX_RESPONSE_BYTES = 8_000_000;

/** Options of every Figma tool factory. */
export interface FigmaToolOptions extends ToolOptions {
  /** The host's Figma token (never a model field). Required. */
  figmaToken: string;
  /** `"personal"` (default): a personal access token, sent as `X-Figma-Token`. `"oauth"`: sent as `Authorization: Bearer`. */
  figmaTokenKind?: "personal" | "oauth";
  /** The API origin. Default `https://api.figma.com`; set it only for tests or a self-hosted proxy. The token is sent to this origin only. */
  baseUrl?: string;
  /** How requests travel. Default: tools-web's SSRF-guarded Node transport (private addresses refused, redirects re-checked, the token dropped on a hop to another origin). */
  transport?: HttpTransport;
  /** Time limit of one request, ms. Default {@link DEFAULT_FIGMA_REQUEST_TIMEOUT_MS}. */
  requestTimeoutMs?: number;
  /** Most bytes of one JSON answer. Default {@link DEFAULT_FIGMA_MAX_RESPONSE_BYTES}. */
  maxResponseBytes?: number;
}

/** The zod shape of {@link FigmaToolOptions}. */
export const figmaOptionsShape = {
  ...toolOptionsShape,
  figmaToken: z.string().min(1),
  figmaTokenKind: z.enum(["personal", "oauth"]).optional(),
  baseUrl: z
    .string()
    .url()
    .refine((value) => /^https?:\/\//.test(value), "baseUrl must be an http(s) URL")
    .optional(),
  transport: z
    .custom<HttpTransport>((value) => typeof value === "function", "expected a transport function")
    .optional(),
  requestTimeoutMs: z.number().int().min(100).max(600_000).optional(),
  maxResponseBytes: z.number().int().min(10_000).max(1_000_000_000).optional(),
};

/**
 * The client of parsed Figma options.
 *
 * @param factory - the factory's name, for errors
 * @param options - parsed options
 * @returns the client and the transport it uses
 */
export function figmaClientFromOptions(
  factory: string,
  options: Omit<FigmaToolOptions, keyof ToolOptions>,
): { client: FigmaClient; transport: HttpTransport } {
  if (options.figmaToken.trim() === "") throw new AgentoolError(`${factory}: figmaToken is empty.`);
  const transport = options.transport ?? createGuardedTransport();
  const client = new FigmaClient({
    token: options.figmaToken.trim(),
    tokenKind: options.figmaTokenKind ?? "personal",
    baseUrl: options.baseUrl ?? FIGMA_API_ORIGIN,
    transport,
    requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_FIGMA_REQUEST_TIMEOUT_MS,
    maxResponseBytes: options.maxResponseBytes ?? DEFAULT_FIGMA_MAX_RESPONSE_BYTES,
  });
  return { client, transport };
}

/** The input fields naming a file: `file_key` or `url`. */
export const fileReferenceShape = {
  file_key: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe("The Figma file key (the part after /design/ in its link). Give this or url."),
  url: z
    .string()
    .min(1)
    .max(2_000)
    .optional()
    .describe(
      "A Figma link as copied (figma.com/design/<key>/…?node-id=1-2); its node-id is used when node_id is not given.",
    ),
};
