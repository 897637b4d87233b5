import {
  defineTool,
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
import { callHookSafely, isFunction } from "./internal/call-hook.js";

/** The default name of the plan tool. */
export const UPDATE_PLAN_TOOL_NAME = "update_plan";

/** Default cap on the number of steps in a plan. */
export const DEFAULT_MAX_PLAN_STEPS = 20;

/** Default cap on the length of one step, in characters (after trimming). */
export const DEFAULT_MAX_STEP_CHARACTERS = 500;

/** The statuses a plan step can have. */
export const PLAN_STEP_STATUSES = ["pending", "in_progress", "completed"] as const;

/** The status of one plan step. */
export type PlanStepStatus = (typeof PLAN_STEP_STATUSES)[number];

/** One step of a canonical plan. */
export interface PlanStep {
  /** What the step does (trimmed). */
  step: string;
  /** Where it stands. */
  status: PlanStepStatus;
}

/** What the plan tool returns: the canonical plan it accepted. */
export interface UpdatePlanToolData {
  /** The full plan, steps trimmed, statuses filled in. */
  plan: PlanStep[];
  /** The model's note about what changed, when it gave one (trimmed). */
  explanation?: string;
  /** How many steps are completed. */
  completed_steps: number;
  /** How many steps the plan has. */
  total_steps: number;
}

/** What an `onUpdate` hook receives. */
export interface PlanUpdate {
  /** The full canonical plan (a copy; changing it changes nothing). */
  plan: PlanStep[];
  /** The model's note about what changed, or `undefined`. */
  explanation: string | undefined;
  /** The conversation / thread id, when the host has one. */
  threadId: string | undefined;
  /** The model's id for this call, when there is one. */
  toolCallId: string | undefined;
}

/** A host hook that receives every accepted plan (for persistence or a UI). */
export type OnPlanUpdate = (update: PlanUpdate) => unknown;

/** Options of {@link createUpdatePlanTool}. */
export interface UpdatePlanToolOptions extends ToolOptions {
  /** Replaces the tool's name (snake_case). Default `"update_plan"`. */
  name?: string;
  /** Replaces the tool's description. */
  description?: string;
  /**
   * Receives every accepted plan, e.g. to persist the latest plan per thread (context
   * compaction may drop old calls; this is where a durable copy comes from). Called without
   * being awaited; a throw or a rejected promise is ignored and never breaks the call.
   */
  onUpdate?: OnPlanUpdate;
  /** Most steps a plan may have. Default {@link DEFAULT_MAX_PLAN_STEPS} (20). */
  maxSteps?: number;
  /** Most characters one step may have (after trimming). Default {@link DEFAULT_MAX_STEP_CHARACTERS} (500). */
  maxStepCharacters?: number;
  /**
   * Names of the tools mounted beside this one; the default description names another tool only
   * when it is listed here (`createCoreTools` passes what it mounts). Default: none.
   */
  mountedTools?: readonly string[];
}

const updatePlanOptionsSchema = z.object({
  ...toolOptionsShape,
  onUpdate: z
    .custom<OnPlanUpdate>(isFunction, {
      error: "expected a function ({ plan, explanation, threadId, toolCallId }) => void",
    })
    .optional(),
  maxSteps: z.number().int().min(1).max(1000).optional(),
  maxStepCharacters: z.number().int().min(1).max(100_000).optional(),
});

/**
 * Builds the plan tool's input schema. It is deliberately permissive about lengths and counts:
 * those limits are checked in `execute`, so each refusal names the offending index.
 */
function createUpdatePlanInputSchema(maxSteps: number, maxStepCharacters: number) {
  return z.object({
    explanation: z.string().optional().describe("What changed and why."),
    plan: z
      .array(
        z
          .object({
            step: z
              .string()
              .describe(`A short, checkable step (at most ${maxStepCharacters} characters).`),
            status: z
              .enum(PLAN_STEP_STATUSES)
              .default("pending")
              .describe("Where the step stands."),
          })
          .strict(),
      )
      .describe(`The complete plan, in order (1 to ${maxSteps} steps).`),
  });
}

/** The plan tool's input schema (with the default limits in its descriptions). */
export const updatePlanInputSchema = createUpdatePlanInputSchema(
  DEFAULT_MAX_PLAN_STEPS,
  DEFAULT_MAX_STEP_CHARACTERS,
);

/**
 * The zod schema of `update_plan`'s data ({@link UpdatePlanToolData}), declared as the tool's
 * `output` so hosts that read structured results (MCP's `outputSchema` + `structuredContent`) get
 * the plan as data. Keys are listed in the order the tool writes them.
 *
 * @example
 * updatePlanOutputSchema.parse(result.data).completed_steps; // 1
 */
export const updatePlanOutputSchema = z.object({
  plan: z
    .array(
      z.object({
        step: z.string().describe("What the step does (trimmed)."),
        status: z.enum(PLAN_STEP_STATUSES).describe("Where the step stands."),
      }),
    )
    .describe("The full plan, steps trimmed, statuses filled in."),
  completed_steps: z.number().int().min(0).describe("How many steps are completed."),
  total_steps: z.number().int().min(1).describe("How many steps the plan has."),
  explanation: z
    .string()
    .optional()
    .describe("The model's note about what changed, when it gave one (trimmed)."),
});

/** The plan tool's type. */
export type UpdatePlanTool = Tool<typeof updatePlanInputSchema, UpdatePlanToolData>;

function defaultDescription(mounted: MountedTools): string {
  return [
    "Publishes your task list so the user can follow progress: call it when work of three or more steps starts, then as each step starts or finishes.",
    "Send the complete plan every time; it replaces the last one. Keep one step in_progress at a time.",
    mounted.when("think", "The user sees it; reason through a decision with think instead."),
  ]
    .filter((line) => line.length > 0)
    .join(" ");
}

/**
 * Field names other toolsets use for `update_plan`'s fields, accepted silently: `steps` and
 * `todos` → `plan`, `note` → `explanation`.
 */
export const UPDATE_PLAN_ALIASES: Readonly<Record<string, string>> = {
  steps: "plan",
  todos: "plan",
  note: "explanation",
};

/** Refusals list at most this many problems, so a broken 1,000-step plan gives a short message. */
const MAX_PROBLEMS_SHOWN = 10;

const CHECKBOXES: Record<PlanStepStatus, string> = {
  completed: "[x]",
  in_progress: "[~]",
  pending: "[ ]",
};

/**
 * Renders a plan as a checklist, one step a line: `[x]` completed, `[~]` in progress, `[ ]` pending.
 *
 * @param plan - the steps
 * @returns the checklist text
 * @example
 * formatPlanChecklist([{ step: "Read the README", status: "completed" }]); // "[x] Read the README"
 */
export function formatPlanChecklist(plan: readonly PlanStep[]): string {
  return plan.map((item) => `${CHECKBOXES[item.status]} ${item.step}`).join("\n");
}

/**
 * Renders an accepted plan for the model: a one-line summary followed by the checklist.
 *
 * @param data - the plan tool's result data
 * @returns e.g. `Plan updated (2/5 done): working on "Fix the bug".` and the checklist
 * @example
 * formatPlanUpdate({ plan, completed_steps: 1, total_steps: 3 });
 */
export function formatPlanUpdate(
  data: Pick<UpdatePlanToolData, "plan" | "completed_steps" | "total_steps">,
): string {
  const current = data.plan.find((item) => item.status === "in_progress");
  const next = data.plan.find((item) => item.status === "pending");
  let summary: string;
  if (data.completed_steps === data.total_steps) summary = "all steps completed.";
  else if (current !== undefined) summary = `working on "${current.step}".`;
  else if (next !== undefined) summary = `next is "${next.step}".`;
  else summary = "no step in progress.";
  return `Plan updated (${data.completed_steps}/${data.total_steps} done): ${summary}\n${formatPlanChecklist(data.plan)}`;
}

/**
 * Creates the `update_plan` tool: the agent's task list. Each call carries the full plan (no
 * diffs), so it is idempotent and a retried call can never corrupt it. Refusals name the
 * offending index (e.g. `plan[3].step is 612 characters; the limit is 500`).
 *
 * @param options - name/description overrides, limits and an optional `onUpdate` hook
 * @returns the tool
 * @throws AgentoolError when the options are invalid (unknown key, wrong type)
 * @example
 * const updatePlan = createUpdatePlanTool({
 *   onUpdate: ({ plan, threadId }) => plans.set(threadId ?? "default", plan),
 * });
 * await updatePlan.run({
 *   plan: [
 *     { step: "Read the README", status: "completed" },
 *     { step: "Fix the typo", status: "in_progress" },
 *     { step: "Summarise the change" },
 *   ],
 * });
 * // data.plan[2].status === "pending"; rendered: `Plan updated (1/3 done): working on "Fix the typo".`
 */
export function createUpdatePlanTool(options?: UpdatePlanToolOptions): UpdatePlanTool {
  const parsed = parseOptions("createUpdatePlanTool", updatePlanOptionsSchema, options);
  const maxSteps = parsed.maxSteps ?? DEFAULT_MAX_PLAN_STEPS;
  const maxStepCharacters = parsed.maxStepCharacters ?? DEFAULT_MAX_STEP_CHARACTERS;
  const onUpdate = parsed.onUpdate;
  const name = parsed.name ?? UPDATE_PLAN_TOOL_NAME;
  const input = createUpdatePlanInputSchema(maxSteps, maxStepCharacters);

  return defineTool({
    name,
    description: parsed.description ?? defaultDescription(mountedTools(parsed.mountedTools)),
    input,
    ...(parsed.timeoutMs === undefined ? {} : { timeoutMs: parsed.timeoutMs }),
    aliases: UPDATE_PLAN_ALIASES,
    annotations: { title: "Update plan", idempotent: true },
    tags: ["core", "plan"],
    output: updatePlanOutputSchema,
    execute: (request, context) => {
      const problems: string[] = [];
      if (request.plan.length === 0) {
        problems.push("plan is empty; send at least one step");
      } else if (request.plan.length > maxSteps) {
        problems.push(
          `plan has ${request.plan.length} steps; the limit is ${maxSteps} (merge or drop steps so that plan[${maxSteps}] and after go away)`,
        );
      }
      const plan: PlanStep[] = [];
      const inProgress: number[] = [];
      request.plan.forEach((item, index) => {
        const step = item.step.trim();
        if (step.length === 0) {
          problems.push(`plan[${index}].step is empty; describe the step in a few words`);
        } else if (step.length > maxStepCharacters) {
          problems.push(
            `plan[${index}].step is ${step.length} characters; the limit is ${maxStepCharacters}`,
          );
        }
        if (item.status === "in_progress") inProgress.push(index);
        plan.push({ step, status: item.status });
      });
      if (inProgress.length > 1) {
        problems.push(
          `plan[${inProgress.join("], plan[")}] are all "in_progress"; at most one step may be in progress`,
        );
      }
      if (problems.length > 0) {
        const shown = problems.slice(0, MAX_PROBLEMS_SHOWN);
        if (problems.length > shown.length) {
          shown.push(`and ${problems.length - shown.length} more problems like these`);
        }
        return fail("INVALID_INPUT", `${name} refused the plan: ${shown.join("; ")}.`, {
          hint: `Fix the problem${problems.length > 1 ? "s" : ""} named above and send the complete plan again (1 to ${maxSteps} steps, each 1 to ${maxStepCharacters} characters, at most one "in_progress").`,
        });
      }

      const explanation = request.explanation?.trim() || undefined;
      const completed = plan.filter((item) => item.status === "completed").length;
      const data: UpdatePlanToolData = {
        plan,
        completed_steps: completed,
        total_steps: plan.length,
      };
      if (explanation !== undefined) data.explanation = explanation;
      if (onUpdate !== undefined) {
        const update: PlanUpdate = {
          plan: plan.map((item) => ({ ...item })),
          explanation,
          threadId: context.threadId,
          toolCallId: context.toolCallId,
        };
        callHookSafely(() => onUpdate(update));
      }
      return ok(data);
    },
    render: formatPlanUpdate,
  });
}
