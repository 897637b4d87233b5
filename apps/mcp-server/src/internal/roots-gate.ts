import { clientSupportsElicitation } from "@agentool/adapters/mcp";
import { errorMessage } from "@agentool/contract";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
  RootsListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { FamilyName } from "../family-names.js";
import { unknownToolCall, unknownToolError } from "../unknown-tool.js";
import { listClientRoot } from "./list-client-root.js";
import type { ServedTools } from "./served-tools.js";
import { withDeadline } from "./with-deadline.js";

const ROOTS_LIST_CHANGED = "notifications/roots/list_changed";

type Held = [JSONRPCMessage, MessageExtraInfo | undefined];

/** What a {@link RootsGate} decides with. */
export interface RootsGateOptions {
  /** The server whose client's roots and capabilities are asked. */
  server: McpServer;
  /** The tools swapped when the roots or the elicitation support change. */
  tools: ServedTools;
  /** The families served. */
  families: readonly FamilyName[];
  /** Whether the client's roots are ignored. */
  fixedRoot: boolean;
  /** Whether the server answers one request and keeps nothing. */
  stateless: boolean;
  /** `--root`, used when the client sends no `file://` root. */
  fallbackRoot: string | undefined;
  /** How long a `roots/list` request may take. */
  rootsTimeoutMs: number;
  /** Where log lines go. */
  log: (line: string) => void;
}

/**
 * Sits between a transport and the SDK: the client's roots are (re)listed before the first
 * request after initialization and after each roots change, and that request and every message
 * behind it wait until they are applied, so no call runs against a root the client replaced. A
 * `tools/call` of a tool not served now is answered here with a protocol error (-32602). On the
 * lazy server, a `tools/list` or `tools/call` (and every message behind it) also waits until the
 * families it needs are loaded.
 */
export class RootsGate {
  readonly #options: RootsGateOptions;
  #rootsStale = false;
  #initialized = false;
  #markInitialized: () => void = () => {};
  readonly #initializedOnce = new Promise<void>((resolve) => {
    this.#markInitialized = resolve;
  });
  #pending: Promise<void> | undefined;
  readonly #held: Held[] = [];
  #deliver: ((message: JSONRPCMessage, extra?: MessageExtraInfo) => void) | undefined;
  #connected: Transport | undefined;

  /**
   * Installs the server's `oninitialized` and roots-changed handlers: without {@link connect}
   * (`server.connect` called directly) the same decisions happen, unheld.
   *
   * @param options - server, tools, families, root settings and logger
   */
  constructor(options: RootsGateOptions) {
    this.#options = options;
    const server = options.server.server;
    server.oninitialized = () => {
      this.#onInitialized();
      void this.#initializedOnce.then(() => {
        if (this.#deliver !== undefined || !this.#rootsStale) return;
        this.#rootsStale = false;
        void this.#refreshRoots();
      });
    };
    server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
      if (this.#initialized && this.#usesRoots()) void this.#refreshRoots();
    });
  }

  /**
   * Connects a transport with every client message passing through the gate.
   *
   * @param transport - the transport to serve
   */
  async connect(transport: Transport): Promise<void> {
    await this.#options.server.connect(transport);
    this.#connected = transport;
    this.#deliver = transport.onmessage;
    transport.onmessage = (message, extra) => this.#receive(message, extra);
  }

  #usesRoots(): boolean {
    const { fixedRoot, stateless, families, server } = this.#options;
    return (
      !fixedRoot &&
      !stateless &&
      (families.includes("fs") || families.includes("git") || families.includes("knowledge")) &&
      server.server.getClientCapabilities()?.roots !== undefined
    );
  }

  async #refreshRoots(relatedRequestId?: RequestId): Promise<void> {
    const { server, tools, fallbackRoot, rootsTimeoutMs, log } = this.#options;
    const root = await listClientRoot(server.server, {
      timeoutMs: rootsTimeoutMs,
      currentRoot: tools.state.root,
      fallbackRoot,
      log,
      ...(relatedRequestId === undefined ? {} : { relatedRequestId }),
    });
    if (root !== null) tools.apply({ ...tools.state, root });
  }

  /** Holds every later message until `work` is done, then hands them on in order. */
  #hold(work: () => Promise<void>): void {
    const current = work().catch((error: unknown) => {
      this.#options.log(`could not apply the client's roots: ${errorMessage(error)}`);
    });
    this.#holdUntil(current);
  }

  /** Holds every later message until `current` settles (it never rejects). */
  #holdUntil(current: Promise<void>): void {
    this.#pending = current;
    void current.then(() => {
      this.#pending = undefined;
      while (this.#pending === undefined && this.#held.length > 0) {
        const [message, extra] = this.#held.shift() as Held;
        this.#receive(message, extra);
      }
    });
  }

  #onInitialized(): void {
    const { server, tools, families, stateless } = this.#options;
    // A stateless server answers one request: nothing to decide for later ones.
    if (this.#initialized || stateless) return;
    this.#initialized = true;
    // A client that sends `initialize` and `notifications/initialized` in one write gets the
    // notification handled first (the SDK's request path takes more microtasks): wait for the
    // client's capabilities before deciding on elicitation and roots.
    const decide = (attempt: number) => {
      if (server.server.getClientCapabilities() === undefined && attempt < 100) {
        setImmediate(() => decide(attempt + 1));
        return;
      }
      tools.apply({
        ...tools.state,
        elicitation: families.includes("interact") && clientSupportsElicitation(server),
      });
      this.#rootsStale = this.#usesRoots();
      this.#markInitialized();
    };
    decide(0);
  }

  /**
   * Hands a request or notification to the SDK once the roots are applied — except a
   * `tools/call` of a tool not served now: that is a protocol error (-32602), as MCP asks.
   */
  #dispatch(message: JSONRPCMessage, extra: MessageExtraInfo | undefined): void {
    const served = this.#options.tools.names;
    const unknown = unknownToolCall(message, served);
    if (unknown !== undefined && this.#connected !== undefined) {
      this.#connected.send(unknownToolError(unknown.id, unknown.name, served)).catch(() => {
        // The client may be gone.
      });
      return;
    }
    // The lazy server: a tools/list or tools/call waits for the families it needs.
    const missing = this.#options.tools.missingFamiliesFor(message);
    if (missing.length > 0) {
      this.#held.push([message, extra]);
      const loading = this.#options.tools.load(missing).catch((error: unknown) => {
        this.#options.log(
          `could not serve the ${missing.join(", ")} tools: ${errorMessage(error)}`,
        );
      });
      this.#holdUntil(loading);
      return;
    }
    this.#deliver?.(message, extra);
  }

  /** Every client message passes here first (after `connect`). */
  #receive(message: JSONRPCMessage, extra: MessageExtraInfo | undefined): void {
    if (!("method" in message)) {
      this.#deliver?.(message, extra);
      return;
    }
    if (this.#pending !== undefined) {
      this.#held.push([message, extra]);
      return;
    }
    if (this.#options.stateless) {
      this.#dispatch(message, extra);
      return;
    }
    const method = message.method;
    if (method === ROOTS_LIST_CHANGED) {
      this.#rootsStale = this.#initialized && this.#usesRoots();
      return;
    }
    if (this.#rootsStale && "id" in message) {
      // Asked on this request's own response stream: over HTTP the client may not have
      // opened its standalone stream yet.
      this.#rootsStale = false;
      this.#held.push([message, extra]);
      this.#hold(() => this.#refreshRoots(message.id));
      return;
    }
    this.#dispatch(message, extra);
    if (method === "notifications/initialized" && !this.#initialized) {
      // The SDK handles the initialize request and this notification a microtask later (the
      // client's capabilities are not known yet): later messages wait for `oninitialized`.
      this.#hold(() => withDeadline(this.#initializedOnce, 5_000));
    }
  }
}
