/** One choice offered with an `ask_user` question. */
export interface QuestionOption {
  /** What the person picks (unique, non-empty, trimmed). */
  label: string;
  /** What choosing it means, when the model said. */
  description?: string;
}

/** The question `ask_user` hands to the handler (also the LangGraph interrupt value). */
export interface AskUserQuestion {
  /** Which tool asks. */
  type: "ask_user";
  /** The question, trimmed. */
  question: string;
  /** The choices, in order; empty for a free-text question. */
  options: QuestionOption[];
  /** Whether the person may pick several options. */
  allow_multiple: boolean;
}

/** The yes/no question `confirm` hands to the handler (also the LangGraph interrupt value). */
export interface ConfirmQuestion {
  /** Which tool asks. */
  type: "confirm";
  /** What the person is asked to confirm, trimmed. */
  message: string;
  /** What the tool assumes when nobody answers. */
  default: boolean;
}

/** Anything a handler may be asked: a question or a yes/no confirmation. */
export type UserQuestion = AskUserQuestion | ConfirmQuestion;

/** The levels of a notification. */
export const NOTIFICATION_LEVELS = ["info", "warning", "error"] as const;

/** The level of a notification. */
export type NotificationLevel = (typeof NOTIFICATION_LEVELS)[number];

/** What `notify` hands to the handler. */
export interface UserNotification {
  /** Which tool sends it. */
  type: "notify";
  /** The message, trimmed. */
  message: string;
  /** How important it is. */
  level: NotificationLevel;
}

/**
 * What a handler may resolve with.
 *
 * - `ask_user`: the answer text, or the chosen option labels (an array, for multi-select).
 * - `confirm`: `true` / `false` (the strings `"yes"`, `"y"`, `"true"`, `"no"`, `"n"`, `"false"`
 *   are accepted too, for hosts that resume with text).
 * - `undefined`, `null` or an empty string: nobody answered (the tool says so to the model).
 */
export type UserAnswer = string | readonly string[] | boolean | null | undefined;

/** What a handler receives besides the question. */
export interface InteractionContext {
  /** Aborted when the run is cancelled or the tool's timeout fires: stop waiting and close any prompt. */
  signal: AbortSignal;
  /** The model's id for this call, when there is one. */
  toolCallId: string | undefined;
  /** The conversation / thread id, when the host has one. */
  threadId: string | undefined;
  /** How long the tool waits for the answer, in milliseconds (`0` = no limit). */
  timeoutMs: number;
}

/**
 * The host's side of the conversation with a person: the tools own schemas, validation, caps,
 * timeouts and descriptions; the handler only shows a question and resolves with the answer.
 *
 * Ready-made handlers: `createTerminalHandler()` from `@agentool/tools-interact/node`
 * (readline) and `createInterruptHandler()` from `@agentool/adapters/langchain` (LangGraph
 * `interrupt()`). There is no default handler: an answer must come from a person or from the
 * host's own script.
 *
 * @example
 * const handler: InteractionHandler = {
 *   ask: async (question, { signal }) => ui.prompt(question, { signal }),
 *   notify: (notification) => ui.toast(notification.message, notification.level),
 * };
 */
export interface InteractionHandler {
  /**
   * Shows a question to a person and resolves with the answer. May throw or reject: the tool
   * turns that into an error the model can act on.
   */
  ask(question: UserQuestion, context: InteractionContext): UserAnswer | Promise<UserAnswer>;
  /**
   * Shows a notification. Not awaited: `notify` never waits for a person. Needed only for the
   * `notify` tool.
   */
  notify?(notification: UserNotification, context: InteractionContext): unknown;
}

/**
 * Tells whether a value looks like an {@link InteractionHandler} (has an `ask` function).
 *
 * @param value - anything
 * @returns `true` when `value.ask` is a function
 * @example
 * isInteractionHandler({ ask: () => "yes" }); // true
 */
export function isInteractionHandler(value: unknown): value is InteractionHandler {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { ask?: unknown }).ask === "function"
  );
}
