import {
  defineTool,
  type MountedTools,
  mountedTools,
  ok,
  parseOptions,
  type Tool,
  type ToolOptions,
  toolOptionsShape,
} from "@agentool/contract";
import { z } from "zod";
import { callHookSafely, isFunction } from "./internal/call-hook.js";

/** The default name of the think tool. */
export const THINK_TOOL_NAME = "think";

/**
 * The default description of the think tool. It teaches the model when to think: before an
 * irreversible action, when rules or policies conflict, and when a tool result is surprising.
 */
export const DEFAULT_THINK_DESCRIPTION = [
  "Records your reasoning; fetches and changes nothing.",
  "Think before an action that is hard to undo, when instructions conflict, or when a result is surprising or empty.",
].join(" ");

/** The think tool's input schema: one described `thought` field. */
export const thinkInputSchema = z.object({
  thought: z
    .string()
    .min(1, { error: "the thought is empty; write what you are reasoning about" })
    .describe("What you know, doubt, and will do next."),
});

/** What the think tool returns: an acknowledgement, never the thought itself. */
export interface ThinkToolData {
  /** Always `true`: the thought was recorded. */
  recorded: true;
  /** The thought's length in characters. */
  characters: number;
}

/** What an `onThought` hook receives besides the thought. */
export interface ThoughtContext {
  /** The model's id for this call, when there is one. */
  toolCallId: string | undefined;
  /** The conversation / thread id, when the host has one. */
  threadId: string | undefined;
}

/** A host hook that receives every thought (for logs or traces). */
export type OnThought = (thought: string, context: ThoughtContext) => unknown;

/** Options of {@link createThinkTool}. */
export interface ThinkToolOptions extends ToolOptions {
  /** Replaces the tool's name (snake_case). Default `"think"`. */
  name?: string;
  /** Replaces the description, e.g. to tune when the model should think in your domain. */
  description?: string;
  /**
   * Receives every thought. Called without being awaited; a throw or a rejected promise is
   * ignored and never breaks the call.
   */
  onThought?: OnThought;
  /**
   * Names of the tools mounted beside this one; the default description names another tool only
   * when it is listed here (`createCoreTools` passes what it mounts). Default: none.
   */
  mountedTools?: readonly string[];
}

/**
 * Field names other toolsets use for `think`'s field, accepted silently: `thoughts` and
 * `reasoning` → `thought`.
 */
export const THINK_ALIASES: Readonly<Record<string, string>> = {
  thoughts: "thought",
  reasoning: "thought",
};

/**
 * Builds the think tool's default description: {@link DEFAULT_THINK_DESCRIPTION}, plus a line
 * that sends task lists to `update_plan` when it is mounted beside it.
 *
 * @param mounted - the tools mounted beside it (a `mountedTools(…)` view or a set of names)
 * @returns the description
 */
export function thinkDescription(
  mounted: Pick<MountedTools, "has"> = mountedTools(undefined),
): string {
  return mounted.has("update_plan")
    ? `${DEFAULT_THINK_DESCRIPTION}\nThe user does not see your thoughts; publish your task list with update_plan.`
    : DEFAULT_THINK_DESCRIPTION;
}

const thinkOptionsSchema = z.object({
  ...toolOptionsShape,
  onThought: z
    .custom<OnThought>(isFunction, { error: "expected a function (thought, context) => void" })
    .optional(),
});

/** The think tool's type. */
export type ThinkTool = Tool<typeof thinkInputSchema, ThinkToolData>;

/**
 * Creates the `think` tool: an Anthropic-style scratchpad. Nothing executes; the model records
 * a thought and gets a short acknowledgement back. Read-only and idempotent.
 *
 * @param options - name/description overrides and an optional `onThought` hook
 * @returns the tool
 * @throws AgentoolError when the options are invalid (unknown key, wrong type)
 * @example
 * const think = createThinkTool({
 *   description: "Think before refunding: confirm the order state and that the request matches policy.",
 *   onThought: (thought, { threadId }) => logger.debug({ threadId, thought }),
 * });
 * await think.run({ thought: "The refund exceeds the limit; ask for approval first." });
 * // { success: true, data: { recorded: true, characters: 52 } }
 */
export function createThinkTool(options?: ThinkToolOptions): ThinkTool {
  const parsed = parseOptions("createThinkTool", thinkOptionsSchema, options);
  const onThought = parsed.onThought;
  return defineTool({
    name: parsed.name ?? THINK_TOOL_NAME,
    description: parsed.description ?? thinkDescription(mountedTools(parsed.mountedTools)),
    input: thinkInputSchema,
    ...(parsed.timeoutMs === undefined ? {} : { timeoutMs: parsed.timeoutMs }),
    aliases: THINK_ALIASES,
    annotations: { title: "Think", readOnly: true, idempotent: true },
    tags: ["core"],
    execute: ({ thought }, context) => {
      if (onThought !== undefined) {
        callHookSafely(() =>
          onThought(thought, { toolCallId: context.toolCallId, threadId: context.threadId }),
        );
      }
      return ok<ThinkToolData>({ recorded: true, characters: thought.length });
    },
    render: () => "Thought recorded. Continue with your next step.",
  });
}
