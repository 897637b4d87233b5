import {
  defineTool,
  fail,
  ok,
  parseOptions,
  type Tool,
  type ToolOptions,
  type ToolResult,
  toolOptionsShape,
} from "@agentool/contract";
import { z } from "zod";
import type { ConfirmQuestion, InteractionHandler, UserAnswer } from "./interaction-handler.js";
import { handlerOptionSchema, maxWaitTimeoutOptionSchema } from "./internal/handler-option.js";
import {
  contractTimeoutForLimits,
  describeWait,
  resolveWaitLimits,
  timeoutSecondsField,
  type WaitLimits,
  waitForAnswer,
  waitForCall,
} from "./internal/wait-for-answer.js";

/** The default name of the yes/no tool. */
export const CONFIRM_TOOL_NAME = "confirm";

/** Default time `confirm` waits for an answer: 10 minutes. */
export const DEFAULT_CONFIRM_TIMEOUT_MS = 600_000;

/** Default cap on the message, in characters (after trimming). */
export const DEFAULT_MAX_CONFIRM_MESSAGE_CHARACTERS = 2_000;

/** Why `confirm` fell back to its default. */
export type ConfirmDefaultReason = "timeout" | "no_answer";

/** What `confirm` returns. */
export interface ConfirmToolData {
  /** Whether to go ahead: the person's answer, or the default when nobody answered. */
  confirmed: boolean;
  /** `true` when nobody answered and `confirmed` is the default. */
  defaulted: boolean;
  /** Why it defaulted, when it did. */
  reason?: ConfirmDefaultReason;
}

/** Options of {@link createConfirmTool}. */
export interface ConfirmToolOptions extends ToolOptions {
  /** Shows the yes/no question to a person and resolves with the answer. Required; there is no default. */
  handler: InteractionHandler;
  /** Replaces the tool's name (snake_case). Default `"confirm"`. */
  name?: string;
  /** Replaces the tool's description. */
  description?: string;
  /** How long to wait for an answer before using the default, when the call sends no `timeout_seconds` (`0` = no limit). Default {@link DEFAULT_CONFIRM_TIMEOUT_MS} (10 minutes). */
  timeoutMs?: number;
  /** The longest wait a call's `timeout_seconds` may ask for (`0` = no limit). Default: `timeoutMs` (a call may only shorten the wait). */
  maxTimeoutMs?: number;
  /** Cap on the message, in characters. Default {@link DEFAULT_MAX_CONFIRM_MESSAGE_CHARACTERS} (2,000). */
  maxMessageCharacters?: number;
}

const confirmOptionsSchema = z.object({
  ...toolOptionsShape,
  handler: handlerOptionSchema,
  maxTimeoutMs: maxWaitTimeoutOptionSchema,
  maxMessageCharacters: z.number().int().min(1).max(100_000).optional(),
});

function createConfirmInputSchema(limits: WaitLimits) {
  return z.object({
    message: z.string().describe("What you will do and why, as a yes/no question."),
    default: z
      .boolean()
      .optional()
      .describe("The answer assumed when none comes in time (default false)."),
    timeout_seconds: timeoutSecondsField(limits),
  });
}

/** The yes/no tool's input schema (with the default wait in its descriptions). */
export const confirmInputSchema = createConfirmInputSchema({
  defaultMs: DEFAULT_CONFIRM_TIMEOUT_MS,
  maxMs: DEFAULT_CONFIRM_TIMEOUT_MS,
});

/**
 * Field names other toolsets use for `confirm`'s fields, accepted silently: `question` and
 * `prompt` → `message`, `default_value` → `default`, `timeout` (seconds) → `timeout_seconds`.
 */
export const CONFIRM_ALIASES: Readonly<Record<string, string>> = {
  question: "message",
  prompt: "message",
  default_value: "default",
  timeout: "timeout_seconds",
};

/** The yes/no tool's type. */
export type ConfirmTool = Tool<typeof confirmInputSchema, ConfirmToolData>;

function defaultDescription(limits: WaitLimits): string {
  return [
    "Asks the user yes/no before an action that is risky, costly or hard to undo (deleting, spending, sending for the user) that the user did not explicitly ask for; not for routine, reversible steps.",
    `With no answer${describeWait(limits)} the result says it defaulted to no (or to default). Act only when the result says go ahead.`,
  ].join(" ");
}

const YES = new Set(["y", "yes", "true", "ok", "confirm", "confirmed"]);
const NO = new Set(["n", "no", "false", "deny", "denied", "cancel"]);

/**
 * Reads a yes/no answer: a boolean, or text such as "yes" / "no".
 *
 * @param answer - what a handler resolved with
 * @returns `true`, `false`, or `undefined` when it is not a yes/no answer
 * @example
 * readConfirmation("Yes"); // true
 */
export function readConfirmation(answer: UserAnswer): boolean | undefined {
  if (typeof answer === "boolean") return answer;
  if (typeof answer !== "string") return undefined;
  const text = answer.trim().toLowerCase();
  if (YES.has(text)) return true;
  if (NO.has(text)) return false;
  return undefined;
}

/**
 * Renders the result of `confirm` for the model.
 *
 * @param data - the tool's result data
 * @returns e.g. `The user confirmed: go ahead.`
 * @example
 * formatConfirmation({ confirmed: false, defaulted: false }); // "The user declined: do not go ahead."
 */
export function formatConfirmation(data: ConfirmToolData): string {
  const decision = data.confirmed
    ? "go ahead"
    : "do not go ahead, and tell the user what you skipped";
  if (!data.defaulted) {
    return data.confirmed ? "The user confirmed: go ahead." : `The user declined: ${decision}.`;
  }
  const why =
    data.reason === "timeout"
      ? "The user did not answer in time"
      : "The user gave no yes/no answer";
  return `${why}, so this defaulted to ${data.confirmed ? "yes" : "no"}: ${decision}.`;
}

/**
 * Creates the `confirm` tool: a yes/no question to a person over the host's handler. Returns
 * `{ confirmed }`; when nobody answers within the wait (the call's `timeout_seconds`, bounded by
 * `maxTimeoutMs`, or `timeoutMs`), or the answer is empty, it returns the
 * call's `default` (false unless given) with `defaulted: true`, and says so to the model. An
 * aborted run stops waiting.
 *
 * @param options - the handler (required), the timeout, the message cap, name/description overrides
 * @returns the tool
 * @throws AgentoolError when the options are invalid (no handler, unknown key, wrong type)
 * @example
 * const confirm = createConfirmTool({ handler: createTerminalHandler() });
 * await confirm.run({ message: "Delete the 3 files in build/?" });
 * // { success: true, data: { confirmed: true, defaulted: false } }
 */
export function createConfirmTool(options: ConfirmToolOptions): ConfirmTool {
  const parsed = parseOptions("createConfirmTool", confirmOptionsSchema, options);
  const handler = parsed.handler;
  const waits = resolveWaitLimits(
    "createConfirmTool",
    parsed.timeoutMs ?? DEFAULT_CONFIRM_TIMEOUT_MS,
    parsed.maxTimeoutMs,
  );
  const maxMessageCharacters =
    parsed.maxMessageCharacters ?? DEFAULT_MAX_CONFIRM_MESSAGE_CHARACTERS;
  const name = parsed.name ?? CONFIRM_TOOL_NAME;

  return defineTool({
    name,
    description: parsed.description ?? defaultDescription(waits),
    input: createConfirmInputSchema(waits),
    aliases: CONFIRM_ALIASES,
    annotations: { title: "Ask the user to confirm", readOnly: true, openWorld: true },
    tags: ["interact", "interact:confirm"],
    timeoutMs: contractTimeoutForLimits(waits),
    execute: async (request, context): Promise<ToolResult<ConfirmToolData>> => {
      const message = request.message.trim();
      if (message.length === 0) {
        return fail("INVALID_INPUT", `${name} refused the question: message is empty.`, {
          hint: "Say exactly what you are about to do, as a yes/no question, and call again.",
        });
      }
      if (message.length > maxMessageCharacters) {
        return fail(
          "INVALID_INPUT",
          `${name} refused the question: message is ${message.length} characters; the limit is ${maxMessageCharacters}.`,
          { hint: "Shorten the message to the action and its consequence, and call again." },
        );
      }
      const fallback = request.default ?? false;
      const question: ConfirmQuestion = { type: "confirm", message, default: fallback };
      const timeoutMs = waitForCall(waits, request.timeout_seconds);
      const outcome = await waitForAnswer(handler, question, context, timeoutMs);
      if (outcome.kind === "timeout") {
        return ok({ confirmed: fallback, defaulted: true, reason: "timeout" });
      }
      if (outcome.kind === "aborted") {
        return fail("ABORTED", "The run was cancelled while waiting for the user's confirmation.", {
          retryable: true,
        });
      }
      if (outcome.kind === "failed") {
        return fail(
          "INTERNAL",
          `The confirmation could not be put to the user: ${outcome.detail}.`,
          {
            hint: "Do not retry and do not do the action; tell the user what you wanted to do and why.",
          },
        );
      }
      const confirmed = readConfirmation(outcome.answer);
      if (confirmed === undefined) {
        return ok({ confirmed: fallback, defaulted: true, reason: "no_answer" });
      }
      return ok({ confirmed, defaulted: false });
    },
    render: formatConfirmation,
  });
}
