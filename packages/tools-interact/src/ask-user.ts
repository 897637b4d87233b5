import {
  defineTool,
  fail,
  formatTruncationMarker,
  type MountedTools,
  mountedTools,
  ok,
  parseOptions,
  type Tool,
  type ToolOptions,
  type ToolResult,
  toolOptionsShape,
} from "@agentool/contract";
import { z } from "zod";
import type { AskUserQuestion, InteractionHandler, QuestionOption } from "./interaction-handler.js";
import { handlerOptionSchema, maxWaitTimeoutOptionSchema } from "./internal/handler-option.js";
import {
  contractTimeoutForLimits,
  describeWait,
  formatDuration,
  resolveWaitLimits,
  timeoutSecondsField,
  type WaitLimits,
  waitForAnswer,
  waitForCall,
} from "./internal/wait-for-answer.js";

/** The default name of the question tool. */
export const ASK_USER_TOOL_NAME = "ask_user";

/** Default time `ask_user` waits for an answer: 10 minutes. */
export const DEFAULT_ASK_USER_TIMEOUT_MS = 600_000;

/** Default cap on the answer returned to the model, in characters (after trimming). */
export const DEFAULT_MAX_ANSWER_CHARACTERS = 4_000;

/** Default cap on the question, in characters (after trimming). */
export const DEFAULT_MAX_QUESTION_CHARACTERS = 2_000;

/** Default cap on the number of options of one question. */
export const DEFAULT_MAX_OPTIONS = 4;

/** Default cap on one option's label, in characters (after trimming). */
export const DEFAULT_MAX_OPTION_LABEL_CHARACTERS = 100;

/** Default cap on one option's description, in characters (after trimming). */
export const DEFAULT_MAX_OPTION_DESCRIPTION_CHARACTERS = 300;

/** What `ask_user` returns. */
export interface AskUserToolData {
  /** Whether the person gave a non-empty answer. */
  answered: boolean;
  /** The answer, trimmed and capped (chosen labels joined with ", " for a multi-select). */
  answer: string;
  /** The option labels the answer names (empty for a free-text answer). */
  selected_options: string[];
  /**
   * Whether the answer was longer than the cap and cut (the rest is not kept; the rendered text
   * then ends with the truncation marker). Not a page: there is no next call for the rest.
   */
  answer_truncated: boolean;
  /** The whole answer's length in characters, when it was cut. */
  answer_characters?: number;
}

/** Options of {@link createAskUserTool}. */
export interface AskUserToolOptions extends ToolOptions {
  /** Shows the question to a person and resolves with the answer. Required; there is no default. */
  handler: InteractionHandler;
  /** Replaces the tool's name (snake_case). Default `"ask_user"`. */
  name?: string;
  /** Replaces the tool's description. */
  description?: string;
  /** How long to wait for an answer when the call sends no `timeout_seconds` (`0` = no limit). Default {@link DEFAULT_ASK_USER_TIMEOUT_MS} (10 minutes). */
  timeoutMs?: number;
  /** The longest wait a call's `timeout_seconds` may ask for (`0` = no limit). Default: `timeoutMs` (a call may only shorten the wait). */
  maxTimeoutMs?: number;
  /** Names of the tools mounted beside this one; the default description names `confirm` only when listed (`createInteractTools` passes what it mounts). Default: none. */
  mountedTools?: readonly string[];
  /** Cap on the answer, in characters. Default {@link DEFAULT_MAX_ANSWER_CHARACTERS} (4,000). */
  maxAnswerCharacters?: number;
  /** Cap on the question, in characters. Default {@link DEFAULT_MAX_QUESTION_CHARACTERS} (2,000). */
  maxQuestionCharacters?: number;
  /** Most options one question may offer. Default {@link DEFAULT_MAX_OPTIONS} (4). */
  maxOptions?: number;
  /** Cap on an option's label. Default {@link DEFAULT_MAX_OPTION_LABEL_CHARACTERS} (100). */
  maxOptionLabelCharacters?: number;
  /** Cap on an option's description. Default {@link DEFAULT_MAX_OPTION_DESCRIPTION_CHARACTERS} (300). */
  maxOptionDescriptionCharacters?: number;
}

const askUserOptionsSchema = z.object({
  ...toolOptionsShape,
  handler: handlerOptionSchema,
  maxTimeoutMs: maxWaitTimeoutOptionSchema,
  maxAnswerCharacters: z.number().int().min(1).max(1_000_000).optional(),
  maxQuestionCharacters: z.number().int().min(1).max(100_000).optional(),
  maxOptions: z.number().int().min(1).max(20).optional(),
  maxOptionLabelCharacters: z.number().int().min(1).max(10_000).optional(),
  maxOptionDescriptionCharacters: z.number().int().min(1).max(10_000).optional(),
});

function createAskUserInputSchema(limits: WaitLimits) {
  return z.object({
    question: z.string().describe("The question, with the context needed to answer it."),
    // Advertised as { label, description? } only: clients that turn JSON Schema back into zod
    // (@langchain/mcp-adapters, Mastra) flatten a union and refuse input. A plain string (as other
    // toolsets send) is still accepted, silently, as { label: string }.
    options: z
      .array(
        z.preprocess(
          (value) => (typeof value === "string" ? { label: value } : value),
          z
            .object({
              label: z.string().describe("A few words, unique."),
              description: z.string().optional().describe("What choosing it means."),
            })
            .strict(),
        ),
      )
      .optional()
      .describe("Best first; omit for a free-text answer."),
    allow_multiple: z.boolean().optional().describe("The user may pick several (default false)."),
    timeout_seconds: timeoutSecondsField(limits),
  });
}

/** The question tool's input schema (with the default limits in its descriptions). */
export const askUserInputSchema = createAskUserInputSchema({
  defaultMs: DEFAULT_ASK_USER_TIMEOUT_MS,
  maxMs: DEFAULT_ASK_USER_TIMEOUT_MS,
});

/**
 * Field names other toolsets use for `ask_user`'s fields, accepted silently: `prompt` and
 * `message` → `question`, `choices` → `options`, `multi_select` / `multiple` →
 * `allow_multiple`, `timeout` (seconds, as in other toolsets) → `timeout_seconds`.
 */
export const ASK_USER_ALIASES: Readonly<Record<string, string>> = {
  prompt: "question",
  message: "question",
  choices: "options",
  multi_select: "allow_multiple",
  multiple: "allow_multiple",
  timeout: "timeout_seconds",
};

/** The question tool's type. */
export type AskUserTool = Tool<typeof askUserInputSchema, AskUserToolData>;

function defaultDescription(maxOptions: number, limits: WaitLimits, mounted: MountedTools): string {
  return [
    "Asks the user one short, specific question and waits.",
    "Only when blocked: an ambiguity that changes the result, or a decision or fact only the user has.",
    `Never ask what other tools can find out, or permission for routine steps${mounted.when("confirm", " (use confirm for a yes/no before a risky action)")}.`,
    `Offer 1 to ${maxOptions} options when the likely answers are known.`,
    `If the user does not answer${describeWait(limits)} you get a TIMEOUT error: go on with your best assumption and say which.`,
  ].join(" ");
}

const NO_ANSWER_NEXT_STEP =
  "Proceed on your own judgement: make the most reasonable assumption, continue, and tell the user which assumption you made.";

interface Limits {
  maxQuestionCharacters: number;
  maxOptions: number;
  maxOptionLabelCharacters: number;
  maxOptionDescriptionCharacters: number;
}

function checkQuestion(
  request: z.output<typeof askUserInputSchema>,
  limits: Limits,
): { question: AskUserQuestion } | { problems: string[] } {
  const problems: string[] = [];
  const question = request.question.trim();
  if (question.length === 0) problems.push("question is empty; write the question to ask");
  else if (question.length > limits.maxQuestionCharacters) {
    problems.push(
      `question is ${question.length} characters; the limit is ${limits.maxQuestionCharacters}`,
    );
  }
  const options: QuestionOption[] = [];
  const given = request.options;
  if (given !== undefined) {
    if (given.length === 0) {
      problems.push(
        `options is empty; give 1 to ${limits.maxOptions} options, or leave options out for a free-text question`,
      );
    } else if (given.length > limits.maxOptions) {
      problems.push(
        `options has ${given.length} entries; the limit is ${limits.maxOptions} (merge or drop options; the user can still answer in their own words)`,
      );
    }
    const seen = new Map<string, string>();
    given.forEach((option, index) => {
      const label = option.label.trim();
      const where = `options[${index}].label`;
      if (label.length === 0) {
        problems.push(`${where} is empty; give each option a short label`);
      } else if (label.length > limits.maxOptionLabelCharacters) {
        problems.push(
          `${where} is ${label.length} characters; the limit is ${limits.maxOptionLabelCharacters} (move detail into description)`,
        );
      } else {
        const key = label.toLowerCase();
        const first = seen.get(key);
        if (first !== undefined) {
          problems.push(
            `${where} ${JSON.stringify(label)} repeats ${first}; labels must be unique`,
          );
        } else seen.set(key, where);
      }
      const description = option.description?.trim();
      if (description !== undefined && description.length > limits.maxOptionDescriptionCharacters) {
        problems.push(
          `options[${index}].description is ${description.length} characters; the limit is ${limits.maxOptionDescriptionCharacters}`,
        );
      }
      options.push(
        description === undefined || description.length === 0 ? { label } : { label, description },
      );
    });
  }
  if (problems.length > 0) return { problems };
  return {
    question: {
      type: "ask_user",
      question,
      options,
      allow_multiple: options.length > 0 && request.allow_multiple === true,
    },
  };
}

function matchLabels(
  parts: readonly string[],
  options: readonly QuestionOption[],
): string[] | undefined {
  if (options.length === 0 || parts.length === 0) return undefined;
  const byKey = new Map(options.map((option) => [option.label.toLowerCase(), option.label]));
  const labels: string[] = [];
  for (const part of parts) {
    const label = byKey.get(part.trim().toLowerCase());
    if (label === undefined) return undefined;
    if (!labels.includes(label)) labels.push(label);
  }
  return labels;
}

/**
 * Renders the result of `ask_user` for the model.
 *
 * @param data - the tool's result data
 * @returns e.g. `The user chose: Staging` or `The user answered: …`
 * @example
 * formatAskUserAnswer({ answered: true, answer: "Staging", selected_options: ["Staging"], answer_truncated: false }); // "The user chose: Staging"
 */
export function formatAskUserAnswer(data: AskUserToolData): string {
  if (!data.answered) return `The user gave no answer (an empty reply). ${NO_ANSWER_NEXT_STEP}`;
  const text =
    data.selected_options.length > 0
      ? `The user chose: ${data.answer}`
      : `The user answered: ${data.answer}`;
  if (!data.answer_truncated) return text;
  return `${text}\n${formatTruncationMarker({
    omitted: Math.max(0, (data.answer_characters ?? data.answer.length) - data.answer.length),
    unit: "characters",
    next: "the rest of the answer was not kept; if you need it, ask the user a narrower follow-up question",
  })}`;
}

/** Cuts text to `max` characters without splitting a surrogate pair. */
function capText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return text.slice(0, end);
}

/**
 * Creates the `ask_user` tool: one clarifying question to a person, over the host's handler.
 * The tool validates the question (1–4 unique, non-empty option labels), waits for the answer
 * up to `timeoutMs` (a `TIMEOUT` error then tells the model to proceed on its own judgement and
 * say so), stops waiting when the run is aborted, and returns the answer trimmed and capped.
 *
 * @param options - the handler (required), the timeout, caps and name/description overrides
 * @returns the tool
 * @throws AgentoolError when the options are invalid (no handler, unknown key, wrong type)
 * @example
 * import { createTerminalHandler } from "@agentool/tools-interact/node";
 * const askUser = createAskUserTool({ handler: createTerminalHandler() });
 * await askUser.run({
 *   question: "Which environment should I deploy to?",
 *   options: ["Staging", { label: "Production", description: "Live traffic" }],
 * });
 * // { success: true, data: { answered: true, answer: "Staging", selected_options: ["Staging"], answer_truncated: false } }
 */
export function createAskUserTool(options: AskUserToolOptions): AskUserTool {
  const parsed = parseOptions("createAskUserTool", askUserOptionsSchema, options);
  const handler = parsed.handler;
  const waits = resolveWaitLimits(
    "createAskUserTool",
    parsed.timeoutMs ?? DEFAULT_ASK_USER_TIMEOUT_MS,
    parsed.maxTimeoutMs,
  );
  const maxAnswerCharacters = parsed.maxAnswerCharacters ?? DEFAULT_MAX_ANSWER_CHARACTERS;
  const limits: Limits = {
    maxQuestionCharacters: parsed.maxQuestionCharacters ?? DEFAULT_MAX_QUESTION_CHARACTERS,
    maxOptions: parsed.maxOptions ?? DEFAULT_MAX_OPTIONS,
    maxOptionLabelCharacters:
      parsed.maxOptionLabelCharacters ?? DEFAULT_MAX_OPTION_LABEL_CHARACTERS,
    maxOptionDescriptionCharacters:
      parsed.maxOptionDescriptionCharacters ?? DEFAULT_MAX_OPTION_DESCRIPTION_CHARACTERS,
  };
  const name = parsed.name ?? ASK_USER_TOOL_NAME;

  return defineTool({
    name,
    description:
      parsed.description ??
      defaultDescription(limits.maxOptions, waits, mountedTools(parsed.mountedTools)),
    input: createAskUserInputSchema(waits),
    aliases: ASK_USER_ALIASES,
    annotations: { title: "Ask the user", readOnly: true, openWorld: true },
    tags: ["interact", "interact:ask"],
    timeoutMs: contractTimeoutForLimits(waits),
    execute: async (request, context): Promise<ToolResult<AskUserToolData>> => {
      const checked = checkQuestion(request, limits);
      if ("problems" in checked) {
        return fail(
          "INVALID_INPUT",
          `${name} refused the question: ${checked.problems.join("; ")}.`,
          {
            hint: `Fix the problem${checked.problems.length > 1 ? "s" : ""} named above and ask again (1 to ${limits.maxOptions} options with unique, non-empty labels, or no options for a free-text question).`,
          },
        );
      }
      const question = checked.question;
      const timeoutMs = waitForCall(waits, request.timeout_seconds);
      const outcome = await waitForAnswer(handler, question, context, timeoutMs);
      if (outcome.kind === "timeout") {
        return fail(
          "TIMEOUT",
          `The user did not answer within ${formatDuration(timeoutMs)}. ${NO_ANSWER_NEXT_STEP}`,
          {
            hint: "Do not ask the same question again now; mention it in your final answer instead.",
          },
        );
      }
      if (outcome.kind === "aborted") {
        return fail("ABORTED", "The run was cancelled while waiting for the user's answer.", {
          retryable: true,
        });
      }
      if (outcome.kind === "failed") {
        return fail("INTERNAL", `The question could not be put to the user: ${outcome.detail}.`, {
          hint: `Do not retry the question. ${NO_ANSWER_NEXT_STEP}`,
        });
      }
      const answer = outcome.answer;
      let parts: string[];
      if (answer === undefined || answer === null) parts = [];
      else if (typeof answer === "string") parts = [answer];
      else if (typeof answer === "boolean") parts = [answer ? "yes" : "no"];
      else if (Array.isArray(answer) && answer.every((part) => typeof part === "string")) {
        parts = answer as string[];
      } else {
        return fail(
          "INTERNAL",
          `The question handler returned an answer the tool cannot read (${Array.isArray(answer) ? "an array with non-text entries" : typeof answer}).`,
          { hint: `This is a bug in the host's handler. ${NO_ANSWER_NEXT_STEP}` },
        );
      }
      parts = parts.map((part) => part.trim()).filter((part) => part.length > 0);
      if (parts.length === 0) {
        return ok({ answered: false, answer: "", selected_options: [], answer_truncated: false });
      }
      let selectedOptions = matchLabels(parts, question.options);
      if (selectedOptions === undefined && parts.length === 1 && question.allow_multiple) {
        selectedOptions = matchLabels(parts[0]?.split(/\s*[,\n]\s*/) ?? [], question.options);
      }
      const text = selectedOptions !== undefined ? selectedOptions.join(", ") : parts.join(", ");
      const kept = capText(text, maxAnswerCharacters);
      const data: AskUserToolData = {
        answered: true,
        answer: kept,
        selected_options: selectedOptions ?? [],
        answer_truncated: kept.length < text.length,
      };
      if (kept.length < text.length) data.answer_characters = text.length;
      return ok(data);
    },
    render: formatAskUserAnswer,
  });
}
