import {
  AgentoolError,
  defineTool,
  fail,
  ok,
  parseOptions,
  type Tool,
  type ToolContext,
  type ToolResult,
  toolOptionsShape,
} from "@agentool/contract";
import type { LaunchOptions } from "playwright-core";
import { z } from "zod";
import { CHROMIUM_NO_EGRESS_ARGS, DEFAULT_CHROMIUM_PATH } from "../node/chromium-backend.js";
import { leaseSharedBrowser } from "../node/shared-browser.js";
import { PreviewError } from "../preview-backend.js";
import type { BrowserToolData } from "./browser-data.js";
import { type BrowserInput, browserInputSchema } from "./browser-input.js";
import type { BrowserTransport } from "./browser-network.js";
import { act, type HtmlToMarkdown, navigate, read, shot, snapshot, tabs } from "./browser-ops.js";
import { BrowserSessions } from "./browser-sessions.js";
import { formatBrowserResult } from "./format-browser-result.js";

/** The default name of the browser tool. */
export const BROWSER_TOOL_NAME = "browser";

/** Default most sessions (conversations) open at once. */
export const DEFAULT_MAX_BROWSER_SESSIONS = 4;

/** Default idle time after which a session closes: 5 minutes. */
export const DEFAULT_BROWSER_IDLE_MS = 300_000;

/** Options of {@link createBrowserTool}. */
export interface BrowserToolOptions {
  /**
   * Every request of every page goes through this: pass `createGuardedTransport()` from
   * `@agentool/tools-web/node` (SSRF guard at connect time, each redirect hop). Required: the
   * browser itself has no network.
   */
  transport: BrowserTransport;
  /** Only these origins (`https://example.com`); default any the transport allows. */
  allowOrigins?: readonly string[];
  /** Never these origins. */
  blockOrigins?: readonly string[];
  /**
   * Headers the host sends to one origin only (`[{ origin: "https://intranet.example", headers:
   * { authorization: "Bearer …" } }]`, web_fetch's `headers` shape): added to that origin's
   * requests, never to another's — not on a redirect, not to a page's subresource elsewhere.
   */
  headers?: ReadonlyArray<{ origin: string; headers: Readonly<Record<string, string>> }>;
  /** Turns a page into Markdown for `snapshot { markdown: true }` (`htmlToMarkdown` of `@agentool/tools-web`). */
  toMarkdown?: HtmlToMarkdown;
  /** The Chromium binary. Default `/usr/bin/chromium`. */
  executablePath?: string;
  /** Extra playwright-core launch options. */
  launchOptions?: LaunchOptions;
  /** Most sessions at once (the least recently used is closed). Default 4. */
  maxSessions?: number;
  /** A session closes after this long without a call. Default 5 minutes. */
  idleMs?: number;
  /** Viewport. Default 1280 × 800. */
  viewport?: { width: number; height: number };
  /** Requests per navigation. Default 300. */
  maxRequests?: number;
  /** Bytes per navigation. Default 50 MB. */
  maxBytes?: number;
  /** Bytes of one response. Default 10 MB. */
  maxResponseBytes?: number;
  /** Replaces the tool's name. */
  name?: string;
  /** Replaces the tool's description. */
  description?: string;
  /** Time limit of one call. Default 60 s. */
  timeoutMs?: number;
  /** Tools mounted beside this one. */
  mountedTools?: readonly string[];
}

const origin = z.string().regex(/^https?:\/\/[^/\s]+$/, "an origin such as https://example.com");

const optionsSchema = z
  .object({
    ...toolOptionsShape,
    transport: z.custom<BrowserTransport>((value) => typeof value === "function", {
      message:
        "transport must be a function: pass createGuardedTransport() from @agentool/tools-web/node",
    }),
    allowOrigins: z.array(origin).optional(),
    blockOrigins: z.array(origin).optional(),
    headers: z
      .array(z.object({ origin, headers: z.record(z.string(), z.string()) }).strict())
      .optional(),
    toMarkdown: z.custom<HtmlToMarkdown>((value) => typeof value === "function").optional(),
    executablePath: z.string().min(1).optional(),
    launchOptions: z.record(z.string(), z.unknown()).optional(),
    maxSessions: z.number().int().min(1).max(64).optional(),
    idleMs: z.number().int().min(1_000).optional(),
    viewport: z
      .object({
        width: z.number().int().min(200).max(4_000),
        height: z.number().int().min(200).max(4_000),
      })
      .optional(),
    maxRequests: z.number().int().min(1).optional(),
    maxBytes: z.number().int().min(1_024).optional(),
    maxResponseBytes: z.number().int().min(1_024).optional(),
  })
  .strict();

/** The browser tool: a contract tool plus `dispose()` and `sessionCount()`. */
export type BrowserTool = Tool<typeof browserInputSchema, BrowserToolData> & {
  /** Closes every session; the shared browser closes with its last user. */
  dispose(): Promise<void>;
  /** Sessions open now. */
  sessionCount(): number;
};

/** The description, naming web_fetch only when it is mounted beside this tool. */
function describeTool(mounted: readonly string[]): string {
  return [
    "A browser on the live web, for pages that need interaction (logins, forms, flows): navigate answers an accessibility tree whose [ref=eN] name elements; act by ref; act answers what changed.",
    "Cookies last for this conversation; private addresses are refused.",
    ...(mounted.includes("web_fetch") ? ["For one page's text use web_fetch instead."] : []),
  ].join(" ");
}

/**
 * The `browser` tool (Node): headless Chromium whose every request goes through the host's
 * guarded transport, one context per conversation.
 *
 * @param options - the transport (required) and limits
 * @returns the tool
 * @example
 * import { createGuardedTransport } from "@agentool/tools-web/node";
 * const browser = createBrowserTool({ transport: createGuardedTransport() });
 * await browser.run({ op: "navigate", url: "https://example.com/" }, { threadId: "t1" });
 */
export function createBrowserTool(options: BrowserToolOptions): BrowserTool {
  const parsed = parseOptions("createBrowserTool", optionsSchema, options) as BrowserToolOptions;
  if (typeof parsed.transport !== "function")
    throw new AgentoolError(
      "createBrowserTool: transport is required (createGuardedTransport() from @agentool/tools-web/node).",
    );
  const lease = leaseSharedBrowser({
    executablePath: parsed.executablePath ?? DEFAULT_CHROMIUM_PATH,
    launchOptions: parsed.launchOptions ?? {},
    // No network of its own: a dead proxy, no host resolves, no QUIC, no background traffic,
    // WebRTC UDP off — whatever the interception does not see (preconnect, prefetch) goes nowhere.
    args: [...CHROMIUM_NO_EGRESS_ARGS, ...(parsed.launchOptions?.args ?? [])],
  });
  const sessions = new BrowserSessions(lease, {
    maxSessions: parsed.maxSessions ?? DEFAULT_MAX_BROWSER_SESSIONS,
    idleMs: parsed.idleMs ?? DEFAULT_BROWSER_IDLE_MS,
    session: {
      viewport: parsed.viewport ?? { width: 1280, height: 800 },
      network: {
        transport: parsed.transport,
        allowOrigins: parsed.allowOrigins,
        blockOrigins: parsed.blockOrigins ?? [],
        maxRequests: parsed.maxRequests ?? 300,
        maxBytes: parsed.maxBytes ?? 50 * 1_048_576,
        maxResponseBytes: parsed.maxResponseBytes ?? 10 * 1_048_576,
        maxRedirects: 10,
        originHeaders: (parsed.headers ?? []).map((entry) => ({
          origin: new URL(entry.origin).origin,
          headers: Object.fromEntries(
            Object.entries(entry.headers).map(([name, value]) => [name.toLowerCase(), value]),
          ),
        })),
      },
    },
  });
  const name = parsed.name ?? BROWSER_TOOL_NAME;
  const execute = async (
    input: BrowserInput,
    context: ToolContext,
  ): Promise<ToolResult<BrowserToolData>> => {
    const thread = context.threadId ?? "default";
    if (input.op === "close") {
      if (!(await sessions.close(thread)))
        return fail("INVALID_INPUT", "No browser session is open in this conversation.", {
          hint: 'Start one with { op: "navigate", url: "https://…" }.',
        });
      return ok({
        op: "close",
        url: "",
        title: "",
        tab: 0,
        tabs: 0,
        events: [],
        events_omitted: 0,
      });
    }
    return sessions.run(thread, input.op === "navigate", async (session) => {
      switch (input.op) {
        case "navigate":
          return navigate(session, input);
        case "snapshot":
          return snapshot(session, input, { toMarkdown: parsed.toMarkdown });
        case "act":
          return act(session, input);
        case "read":
          return read(session, input);
        case "shot":
          return shot(session, input);
        default:
          return tabs(session, input);
      }
    });
  };
  const tool = defineTool({
    name,
    description: parsed.description ?? describeTool(parsed.mountedTools ?? []),
    input: browserInputSchema,
    annotations: {
      title: "Browse the live web",
      readOnly: false,
      destructive: false,
      idempotent: false,
      openWorld: true,
    },
    tags: ["browser", "network"],
    timeoutMs: parsed.timeoutMs ?? 60_000,
    execute: async (input, context) => {
      try {
        return await execute(input, context);
      } catch (error) {
        if (PreviewError.isInstance(error)) throw error;
        return fail(
          "INTERNAL",
          `${name} ${input.op} failed: ${String((error as Error)?.message ?? error).split("\n")[0]}`,
          {
            hint: "Take a snapshot to see where the page is, or navigate again.",
          },
        );
      }
    },
    render: (data) => formatBrowserResult(data, name),
  });
  return Object.freeze({
    ...tool,
    dispose: () => sessions.dispose(),
    sessionCount: () => sessions.size,
  }) as BrowserTool;
}
