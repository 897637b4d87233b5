import {
  AgentoolError,
  defineTool,
  errorMessage,
  fail,
  type MountedTools,
  mountedTools,
  ok,
  parseOptions,
  type Tool,
  type ToolOptions,
  toolOptionsShape,
} from "@agentool/contract";
import { z } from "zod";
import {
  type InteractionHandler,
  NOTIFICATION_LEVELS,
  type NotificationLevel,
  type UserNotification,
} from "./interaction-handler.js";
import { handlerOptionSchema } from "./internal/handler-option.js";

/** The default name of the notification tool. */
export const NOTIFY_TOOL_NAME = "notify";

/** Default cap on a notification, in characters (after trimming). */
export const DEFAULT_MAX_NOTIFICATION_CHARACTERS = 2_000;

/** What `notify` returns. */
export interface NotifyToolData {
  /** Whether the notification was handed to the host (not whether anyone read it). */
  sent: boolean;
  /** The level it was sent with. */
  level: NotificationLevel;
  /** Why it was not sent, when it was not. */
  reason?: string;
}

/** Options of {@link createNotifyTool}. */
export interface NotifyToolOptions extends ToolOptions {
  /** The host's handler; its `notify` shows the message. Required; there is no default. */
  handler: InteractionHandler;
  /** Replaces the tool's name (snake_case). Default `"notify"`. */
  name?: string;
  /** Replaces the tool's description. */
  description?: string;
  /** Cap on the message, in characters. Default {@link DEFAULT_MAX_NOTIFICATION_CHARACTERS} (2,000). */
  maxMessageCharacters?: number;
  /** Names of the tools mounted beside this one; the default description names `ask_user` and `confirm` only when listed (`createInteractTools` passes what it mounts). Default: none. */
  mountedTools?: readonly string[];
}

const notifyOptionsSchema = z.object({
  ...toolOptionsShape,
  handler: handlerOptionSchema,
  maxMessageCharacters: z.number().int().min(1).max(100_000).optional(),
});

/** The notification tool's input schema. */
export const notifyInputSchema = z.object({
  message: z.string().describe("One or two sentences."),
  level: z.enum(NOTIFICATION_LEVELS).optional().describe("Severity (default info)."),
});

/** The notification tool's type. */
export type NotifyTool = Tool<typeof notifyInputSchema, NotifyToolData>;

/**
 * Field names other toolsets use for `notify`'s fields, accepted silently: `text` → `message`,
 * `severity` → `level`.
 */
export const NOTIFY_ALIASES: Readonly<Record<string, string>> = {
  text: "message",
  severity: "level",
};

function defaultDescription(mounted: MountedTools): string {
  const ask = mounted.when("ask_user", " (use ask_user)");
  const confirm = mounted.when("confirm", " (use confirm)");
  return [
    "Sends the user a short status message (progress, a milestone, a problem) and returns at once; no reply comes.",
    `It is not a question${ask} and not a way to ask permission${confirm}. Use warning or error only when it matters.`,
  ].join(" ");
}

/**
 * Renders the result of `notify` for the model.
 *
 * @param data - the tool's result data
 * @returns e.g. `Notification sent (info).`
 * @example
 * formatNotifyResult({ sent: true, level: "info" }); // "Notification sent (info). The user is not expected to reply; continue."
 */
export function formatNotifyResult(data: NotifyToolData): string {
  if (data.sent) {
    return `Notification sent (${data.level}). The user is not expected to reply; continue.`;
  }
  return `The notification was not delivered (${data.reason ?? "unknown reason"}). Continue, and include the message in your final answer instead.`;
}

/**
 * Creates the `notify` tool: a fire-and-forget message to the user through the handler's
 * `notify`. It never waits for a person: the handler's result is not awaited, and a throw or a
 * rejection never breaks the call (a synchronous throw gives `{ sent: false }`).
 *
 * @param options - the handler (with `notify`), the message cap, name/description overrides
 * @returns the tool
 * @throws AgentoolError when the options are invalid or the handler has no `notify`
 * @example
 * const notify = createNotifyTool({ handler: createTerminalHandler() });
 * await notify.run({ message: "Indexed 1,200 of 5,000 files.", level: "info" });
 * // { success: true, data: { sent: true, level: "info" } }
 */
export function createNotifyTool(options: NotifyToolOptions): NotifyTool {
  const parsed = parseOptions("createNotifyTool", notifyOptionsSchema, options);
  const handler = parsed.handler;
  if (typeof handler.notify !== "function") {
    throw new AgentoolError(
      "createNotifyTool: the handler has no notify(notification, context) function; add one, or leave the notify tool out.",
    );
  }
  const maxMessageCharacters = parsed.maxMessageCharacters ?? DEFAULT_MAX_NOTIFICATION_CHARACTERS;
  const name = parsed.name ?? NOTIFY_TOOL_NAME;

  return defineTool({
    name,
    description: parsed.description ?? defaultDescription(mountedTools(parsed.mountedTools)),
    input: notifyInputSchema,
    ...(parsed.timeoutMs === undefined ? {} : { timeoutMs: parsed.timeoutMs }),
    aliases: NOTIFY_ALIASES,
    annotations: { title: "Notify the user", openWorld: true },
    tags: ["interact", "interact:notify"],
    execute: (request, context) => {
      const message = request.message.trim();
      if (message.length === 0) {
        return fail("INVALID_INPUT", `${name} refused the message: message is empty.`, {
          hint: "Write what the user should know and call again.",
        });
      }
      if (message.length > maxMessageCharacters) {
        return fail(
          "INVALID_INPUT",
          `${name} refused the message: message is ${message.length} characters; the limit is ${maxMessageCharacters}.`,
          { hint: "Shorten it to one or two sentences; put details in your final answer." },
        );
      }
      const level = request.level ?? "info";
      const notification: UserNotification = { type: "notify", message, level };
      try {
        const returned = handler.notify?.(notification, {
          signal: new AbortController().signal,
          toolCallId: context.toolCallId,
          threadId: context.threadId,
          timeoutMs: 0,
        });
        if (
          (typeof returned === "object" || typeof returned === "function") &&
          returned !== null &&
          typeof (returned as PromiseLike<unknown>).then === "function"
        ) {
          Promise.resolve(returned).catch(() => {
            // Fire-and-forget: a failed delivery must not break the call or leak a rejection.
          });
        }
      } catch (error) {
        const detail = errorMessage(error);
        return ok({ sent: false, level, reason: detail.slice(0, 300) || "the handler failed" });
      }
      return ok({ sent: true, level });
    },
    render: formatNotifyResult,
  });
}
