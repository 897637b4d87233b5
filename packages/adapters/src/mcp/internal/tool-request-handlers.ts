import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type {
  CallToolRequest,
  CallToolResult,
  ListToolsResult,
  RequestId,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { McpRequestExtra } from "../register-tools-options.js";

// The two MCP TypeScript SDKs register request handlers differently:
// - v1 (`@modelcontextprotocol/sdk` 1.x): `setRequestHandler(requestSchema, (request, extra) => …)`,
//   the method read from the schema's `method` literal; `extra` carries `signal`, `requestId`,
//   `sendNotification`, …
// - v2 (`@modelcontextprotocol/server` 2.x): `setRequestHandler("tools/call", (request, ctx) => …)`,
//   `ctx.mcpReq` carrying `id`, `signal`, `notify`, `send`, … (built by the server's
//   `buildContext` hook, which v1 does not have).
// Both servers validate `tools/call` requests and results against their own spec schemas, so the
// v1 schemas below only name the method (no import of the SDK at run time).

const listToolsRequestSchema = z.looseObject({ method: z.literal("tools/list") });

const callToolRequestSchema = z.looseObject({
  method: z.literal("tools/call"),
  params: z.looseObject({
    name: z.string(),
    arguments: z.record(z.string(), z.unknown()).optional(),
  }),
});

/** The handler context an SDK v2 server hands to a request handler (the parts read here). */
interface SdkV2Context {
  sessionId?: string;
  mcpReq: {
    id: RequestId;
    _meta?: Record<string, unknown>;
    signal: AbortSignal;
    notify(notification: unknown): Promise<void>;
    send(request: unknown, schemaOrOptions?: unknown, options?: unknown): Promise<unknown>;
  };
  http?: { authInfo?: unknown; req?: Request };
}

/** An SDK v2 low-level server's way of setting a request handler: by method name. */
interface SdkV2Server {
  setRequestHandler(
    method: string,
    handler: (request: unknown, context: SdkV2Context) => unknown,
  ): void;
}

/** The `tools/list` and `tools/call` handlers agentool serves, written against SDK v1's shapes. */
export interface ToolRequestHandlers {
  /** Answers `tools/list`. */
  list(): ListToolsResult;
  /** Answers `tools/call`. */
  call(request: CallToolRequest, extra: McpRequestExtra): Promise<CallToolResult>;
}

/**
 * Whether a low-level server is the MCP TypeScript SDK v2's (`@modelcontextprotocol/server`):
 * its handlers are set by method name and receive a context built by its `buildContext` hook.
 *
 * @param server - a low-level server of either SDK
 * @returns `true` for SDK v2, `false` for SDK v1
 * @internal
 */
export function isSdkV2Server(server: Server): boolean {
  return typeof (server as unknown as { buildContext?: unknown }).buildContext === "function";
}

function requestInfoOf(request: Request | undefined): McpRequestExtra["requestInfo"] {
  if (request === undefined) return undefined;
  return { headers: Object.fromEntries(request.headers.entries()), url: new URL(request.url) };
}

/**
 * The SDK v1 `extra` for an SDK v2 handler context, so `tools/call` (and the host's `threadId`
 * option) read one shape on both SDKs.
 *
 * @param context - the context an SDK v2 server handed to the handler
 * @returns the same request seen through SDK v1's `RequestHandlerExtra`
 * @internal
 */
export function extraFromSdkV2Context(context: SdkV2Context): McpRequestExtra {
  const request = context.mcpReq;
  const extra = {
    signal: request.signal,
    sessionId: context.sessionId,
    requestId: request.id,
    _meta: request._meta,
    authInfo: context.http?.authInfo,
    requestInfo: requestInfoOf(context.http?.req),
    sendNotification: (notification: unknown) => request.notify(notification),
    sendRequest: (message: unknown, resultSchema: unknown, options?: unknown) =>
      request.send(message, resultSchema, options),
  };
  return extra as unknown as McpRequestExtra;
}

/**
 * Sets agentool's `tools/list` and `tools/call` handlers on a low-level server of either SDK.
 *
 * @param server - a low-level server (v1 `Server` or v2 `Server`)
 * @param handlers - the handlers, written against SDK v1's request and `extra` shapes
 * @internal
 */
export function setToolRequestHandlers(server: Server, handlers: ToolRequestHandlers): void {
  if (isSdkV2Server(server)) {
    const modern = server as unknown as SdkV2Server;
    modern.setRequestHandler("tools/list", () => handlers.list());
    modern.setRequestHandler("tools/call", (request, context) =>
      handlers.call(request as CallToolRequest, extraFromSdkV2Context(context)),
    );
    return;
  }
  server.setRequestHandler(listToolsRequestSchema, () => handlers.list());
  server.setRequestHandler(callToolRequestSchema, (request, extra) =>
    handlers.call(request as CallToolRequest, extra),
  );
}
