import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type {
  ElicitRequestFormParams,
  ElicitResult,
  LoggingLevel,
} from "@modelcontextprotocol/sdk/types.js";
import {
  isConnected,
  lowLevelServer,
  serverCapabilities,
  stateOf,
} from "./internal/mcp-server-state.js";

// The shapes below copy `@agentool/tools-interact`'s handler types structurally: adapters does
// not depend on a family, and the handler made here is accepted by `createInteractTools`.

/** One choice offered with an `ask_user` question. */
export interface McpQuestionOption {
  /** What the person picks. */
  label: string;
  /** What choosing it means, when the model said. */
  description?: string;
}

/** The question `ask_user` hands to the handler. */
export interface McpAskUserQuestion {
  /** Which tool asks. */
  type: "ask_user";
  /** The question. */
  question: string;
  /** The choices, in order; empty for a free-text question. */
  options: McpQuestionOption[];
  /** Whether the person may pick several options. */
  allow_multiple: boolean;
}

/** The yes/no question `confirm` hands to the handler. */
export interface McpConfirmQuestion {
  /** Which tool asks. */
  type: "confirm";
  /** What the person is asked to confirm. */
  message: string;
  /** What the tool assumes when nobody answers. */
  default: boolean;
}

/** Anything the handler may be asked. */
export type McpUserQuestion = McpAskUserQuestion | McpConfirmQuestion;

/** What `notify` hands to the handler. */
export interface McpUserNotification {
  /** Which tool sends it. */
  type: "notify";
  /** The message. */
  message: string;
  /** How important it is. */
  level: "info" | "warning" | "error";
}

/** What the handler receives besides the question. */
export interface McpInteractionContext {
  /** Aborted when the run is cancelled or the tool's timeout fires: the elicitation is cancelled. */
  signal: AbortSignal;
  /** The call's id (`String(requestId)` of the `tools/call` being served, via `registerTools`). */
  toolCallId: string | undefined;
  /** The conversation / thread id, when the host has one. */
  threadId: string | undefined;
  /** How long the tool waits for the answer, in milliseconds (`0` = no limit). */
  timeoutMs: number;
}

/**
 * What `ask` resolves with: the answer text, the chosen labels (multi-select), `true` / `false`
 * (confirm), or `undefined` when nobody answered.
 */
export type McpUserAnswer = string | readonly string[] | boolean | null | undefined;

/** A handler for `ask_user`, `confirm` and `notify` that talks to the MCP client. */
export interface McpInteractionHandler {
  /** Sends an `elicitation/create` request and resolves with the person's answer. */
  ask(question: McpUserQuestion, context: McpInteractionContext): Promise<McpUserAnswer>;
  /** Sends a `notifications/message` logging message (not awaited). */
  notify(notification: McpUserNotification, context: McpInteractionContext): void;
}

/** The logger name of the logging messages `notify` sends. */
export const MCP_NOTIFICATION_LOGGER = "agentool";

/** The longest timer a JavaScript engine keeps (about 24.8 days); longer ones fire at once. */
const LONGEST_TIMER_MS = 2_147_483_647;

/** Extra time the SDK's request timeout allows beyond the tool's wait, so the tool's own timeout (and message) wins. */
const REQUEST_TIMEOUT_MARGIN_MS = 1_000;

const LEVELS: Readonly<Record<McpUserNotification["level"], LoggingLevel>> = {
  info: "info",
  warning: "warning",
  error: "error",
};

/** Field names of the elicitation forms. */
const ANSWER_FIELD = "answer";
const CHOICE_FIELD = "choice";
const CHOICES_FIELD = "choices";
const OTHER_FIELD = "other";
const CONFIRM_FIELD = "confirmed";

type RequestedSchema = ElicitRequestFormParams["requestedSchema"];

/** What the options mean, for the choice field's description: `label: description` lines. */
function describeOptions(options: readonly McpQuestionOption[]): { description?: string } {
  const lines = options
    .filter((option) => option.description !== undefined)
    .map((option) => `${option.label}: ${option.description}`);
  return lines.length === 0 ? {} : { description: lines.join("\n") };
}

/**
 * The form of a question: a free-text field; one choice (a string `enum` of the option labels)
 * or several (an array of them) plus an optional free-text field (the person may always answer
 * in their own words); or one boolean for `confirm`. Plain `enum`s, with what the options mean
 * in the field's description, are what every elicitation-capable client renders (titled
 * `oneOf` choices are newer than the 2025-06-18 protocol).
 */
function requestedSchemaFor(question: McpUserQuestion): RequestedSchema {
  if (question.type === "confirm") {
    return {
      type: "object",
      properties: {
        [CONFIRM_FIELD]: {
          type: "boolean",
          title: "Confirm",
          description: "Yes to go ahead, no to refuse.",
          default: question.default,
        },
      },
      required: [CONFIRM_FIELD],
    };
  }
  if (question.options.length === 0) {
    return {
      type: "object",
      properties: { [ANSWER_FIELD]: { type: "string", title: "Your answer" } },
      required: [ANSWER_FIELD],
    };
  }
  const labels = question.options.map((option) => option.label);
  const other = {
    type: "string" as const,
    title: "Or answer in your own words",
    description: "Optional.",
  };
  if (question.allow_multiple) {
    return {
      type: "object",
      properties: {
        [CHOICES_FIELD]: {
          type: "array",
          title: "Choose any that apply",
          ...describeOptions(question.options),
          items: { type: "string", enum: labels },
        },
        [OTHER_FIELD]: other,
      },
    };
  }
  return {
    type: "object",
    properties: {
      [CHOICE_FIELD]: {
        type: "string",
        title: "Choose one",
        ...describeOptions(question.options),
        enum: labels,
      },
      [OTHER_FIELD]: other,
    },
  };
}

function textOf(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  return text.length > 0 ? text : undefined;
}

/** The answer in an elicitation result: accept → the content, decline → `false` for confirm, else nothing. */
function answerFrom(question: McpUserQuestion, result: ElicitResult): McpUserAnswer {
  if (question.type === "confirm") {
    if (result.action === "decline") return false;
    if (result.action !== "accept") return undefined;
    const confirmed = result.content?.[CONFIRM_FIELD];
    // Accepting the form without the field still means "go ahead".
    return typeof confirmed === "boolean" ? confirmed : true;
  }
  if (result.action !== "accept") return undefined;
  const content = result.content ?? {};
  if (question.options.length === 0) return textOf(content[ANSWER_FIELD]);
  const parts: string[] = [];
  const chosen = question.allow_multiple ? content[CHOICES_FIELD] : content[CHOICE_FIELD];
  if (Array.isArray(chosen)) {
    for (const label of chosen) {
      const text = textOf(label);
      if (text !== undefined) parts.push(text);
    }
  } else {
    const text = textOf(chosen);
    if (text !== undefined) parts.push(text);
  }
  const other = textOf(content[OTHER_FIELD]);
  if (other !== undefined) parts.push(other);
  if (parts.length === 0) return undefined;
  if (question.allow_multiple) return parts;
  return parts.length === 1 ? parts[0] : parts;
}

/**
 * Makes sure the next request the server sends does not get the JSON-RPC id 0. SDK 1.x peers
 * ignore `notifications/cancelled` for request id 0 (modelcontextprotocol/typescript-sdk#2115),
 * and a server's first request has that id: an elicitation sent first could then never be
 * cancelled on an SDK-based client. A ping (answered by every peer) takes the id instead.
 */
function skipRequestIdZero(server: Server): void {
  const counter = (server as unknown as { _requestMessageId?: unknown })._requestMessageId;
  if (counter !== 0) return;
  server.ping().catch(() => {
    // Only there to take the id; the answer does not matter.
  });
}

function requestTimeoutFor(timeoutMs: number): number {
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) return LONGEST_TIMER_MS;
  return Math.min(timeoutMs + REQUEST_TIMEOUT_MARGIN_MS, LONGEST_TIMER_MS);
}

/**
 * Creates a handler for `ask_user`, `confirm` and `notify` of `@agentool/tools-interact` (it
 * matches their `InteractionHandler` shape; adapters does not depend on that package) that talks
 * to the MCP client of `server`:
 *
 * - `ask` sends an `elicitation/create` form request: `ask_user` without options → one string
 *   field; with options → a single choice (a string `enum` of the labels) or, with
 *   `allow_multiple`, a multi-select (an array of them), each beside an optional free-text field
 *   and with what the options mean in the field's description; `confirm`
 *   → one boolean (default: the tool's default). Accept → the answer; decline → `false` for
 *   `confirm`, no answer for `ask_user`; cancel → no answer (the tool then says so, or uses its
 *   default). The request is sent as part of the `tools/call` being served (so it travels on that
 *   request's stream over Streamable HTTP), is cancelled when `context.signal` aborts, and waits
 *   as long as the tool does (`context.timeoutMs`, `0` = no limit) rather than the SDK's 60 s
 *   default. It rejects when the client did not declare elicitation — serve `ask_user` and
 *   `confirm` only when {@link clientSupportsElicitation} says so.
 * - `notify` sends a logging message (`notifications/message`, level `info` / `warning` /
 *   `error`, logger {@link MCP_NOTIFICATION_LOGGER}, `data` = the message). The server must
 *   declare the logging capability (`capabilities: { logging: {} }`); without it, or without a
 *   connection, `notify` throws and the tool reports the notification as not delivered. A client
 *   that set a higher level with `logging/setLevel` does not get lower ones.
 *
 * @param server - the SDK's `McpServer`, or its low-level `Server`
 * @returns the handler, to pass to `createInteractTools({ handler })`
 * @throws AgentoolError when `server` is neither
 * @example
 * const server = new McpServer({ name: "me", version: "1.0.0" }, { capabilities: { logging: {} } });
 * const handler = createMcpInteractionHandler(server);
 * registerTools(server, createInteractTools({ handler }));
 * await server.connect(transport);
 */
export function createMcpInteractionHandler(server: McpServer | Server): McpInteractionHandler {
  const low = lowLevelServer("createMcpInteractionHandler", server);
  return {
    async ask(question, context) {
      const call =
        context.toolCallId === undefined
          ? undefined
          : stateOf(low).activeCalls.get(context.toolCallId);
      const message = question.type === "confirm" ? question.message : question.question;
      if (!context.signal.aborted) skipRequestIdZero(low);
      const result = await low.elicitInput(
        { mode: "form", message, requestedSchema: requestedSchemaFor(question) },
        {
          signal: context.signal,
          timeout: requestTimeoutFor(context.timeoutMs),
          ...(call === undefined ? {} : { relatedRequestId: call.requestId }),
        },
      );
      return answerFrom(question, result);
    },
    notify(notification, context) {
      if (serverCapabilities(low).logging === undefined) {
        throw new Error(
          "the MCP server did not declare the logging capability (create it with capabilities: { logging: {} })",
        );
      }
      if (!isConnected(low)) throw new Error("the MCP server is not connected to a client");
      const call =
        context.toolCallId === undefined
          ? undefined
          : stateOf(low).activeCalls.get(context.toolCallId);
      low
        .sendLoggingMessage(
          {
            level: LEVELS[notification.level] ?? "info",
            logger: MCP_NOTIFICATION_LOGGER,
            data: notification.message,
          },
          call?.sessionId,
        )
        .catch(() => {
          // Fire-and-forget: the client may be gone.
        });
    },
  };
}
