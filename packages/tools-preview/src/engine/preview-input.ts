import { fail, formatCount, type ToolFailure } from "@agentool/contract";
import { z } from "zod";
import type { PreviewAction } from "../preview-backend.js";
import type { EngineSettings } from "./engine-options.js";
import {
  MAX_PREVIEW_ACTIONS,
  MAX_PREVIEW_CODE_CHARACTERS,
  MAX_PREVIEW_QUERIES,
  PREVIEW_ACTION_ALLOWANCE_MS,
  PREVIEW_DEADLINE_MARGIN_MS,
} from "./limits.js";

const ACTION_TYPES = ["click", "key", "type", "scroll", "wait"] as const;
const OPS = ["open", "act", "read", "eval", "shot", "close"] as const;

/** The preview tool's input schema. */
export const previewInputSchema = z.object({
  op: z.enum(OPS).describe("open reloads path; shot: PNG of the largest canvas or viewport."),
  path: z.string().min(1).max(500).optional().describe("open: e.g. snake.html."),
  actions: z
    .array(
      z.object({
        type: z.enum(ACTION_TYPES).describe("Action."),
        x: z.number().min(0).max(10_000).optional().describe("click: CSS px."),
        y: z.number().min(0).max(10_000).optional().describe("click: CSS px."),
        selector: z.string().max(500).optional().describe("click: or a selector."),
        key: z.string().min(1).max(32).optional().describe("key: e.g. ArrowLeft."),
        text: z.string().max(2_000).optional().describe("type: text."),
        dx: z.number().min(-100_000).max(100_000).optional().describe("scroll: px."),
        dy: z.number().min(-100_000).max(100_000).optional().describe("scroll: px."),
        ms: z.number().int().min(0).max(600_000).optional().describe("wait: ms."),
      }),
    )
    .min(1)
    .max(MAX_PREVIEW_ACTIONS)
    .optional()
    .describe("act: run in order."),
  queries: z
    .array(
      z.object({
        css: z.string().min(1).max(500).describe("Selector."),
        attr: z
          .string()
          .min(1)
          .max(100)
          .optional()
          .describe("text (default), html, value or attribute."),
      }),
    )
    .min(1)
    .max(MAX_PREVIEW_QUERIES)
    .optional()
    .describe("read: DOM queries."),
  code: z
    .string()
    .min(1)
    .max(MAX_PREVIEW_CODE_CHARACTERS)
    .optional()
    .describe("eval: an expression, or a function body with return; JSON-safe."),
});

/** The validated input of one call. */
export type PreviewInput = z.output<typeof previewInputSchema>;

/** One op of the preview tool. */
export type PreviewOp = PreviewInput["op"];

/**
 * A short description of an action for the model (`click #go`, `key "a"`).
 *
 * @param action - the action
 * @returns its description
 */
export function describeAction(action: PreviewAction): string {
  switch (action.type) {
    case "click":
      return action.selector !== undefined
        ? `click ${action.selector}`
        : `click (${action.x}, ${action.y})`;
    case "key":
      return `key ${JSON.stringify(action.key)}`;
    case "type":
      return `type ${JSON.stringify((action.text ?? "").slice(0, 40))}`;
    case "scroll":
      return `scroll (${action.dx ?? 0}, ${action.dy ?? 0})`;
    default:
      return `wait ${action.ms} ms`;
  }
}

/**
 * What each action lacks (or has too much of) for its type.
 *
 * @param actions - the actions of an `act`
 * @returns one problem per bad action, empty when all are complete
 */
export function checkActions(actions: readonly PreviewAction[]): string[] {
  const problems: string[] = [];
  actions.forEach((action, index) => {
    const at = `actions[${index}] (${action.type})`;
    if (action.type === "click") {
      const hasPoint = action.x !== undefined && action.y !== undefined;
      if (!hasPoint && action.selector === undefined)
        problems.push(`${at} needs x and y, or selector`);
      if (hasPoint && action.selector !== undefined)
        problems.push(`${at} takes x and y or selector, not both`);
    } else if (action.type === "key" && action.key === undefined) problems.push(`${at} needs key`);
    else if (action.type === "type" && (action.text === undefined || action.text.length === 0))
      problems.push(`${at} needs text`);
    else if (action.type === "scroll" && action.dx === undefined && action.dy === undefined)
      problems.push(`${at} needs dx or dy`);
    else if (action.type === "wait" && action.ms === undefined) problems.push(`${at} needs ms`);
  });
  return problems;
}

function checkAct(actions: readonly PreviewAction[], settings: EngineSettings) {
  const { name, deadlineMs, timeoutMs } = settings;
  if (actions.length === 0)
    return fail(
      "INVALID_INPUT",
      `Invalid input for ${name}: op "act" needs actions (1 to ${MAX_PREVIEW_ACTIONS}).`,
      { hint: 'Send {op:"act", actions:[{type:"key", key:"ArrowRight"}]}.' },
    );
  const problems = checkActions(actions);
  if (problems.length > 0)
    return fail("INVALID_INPUT", `Invalid input for ${name}: ${problems.join("; ")}.`, {
      hint: "Fix the actions named above and call again.",
    });
  const waits = actions.reduce(
    (sum, action) => sum + (action.type === "wait" ? (action.ms ?? 0) : 0),
    0,
  );
  const budget = waits + actions.length * PREVIEW_ACTION_ALLOWANCE_MS;
  if (budget > deadlineMs)
    return fail(
      "INVALID_INPUT",
      `The waits of this act add up to ${formatCount(waits)} ms (plus ${PREVIEW_ACTION_ALLOWANCE_MS} ms for each of the ${actions.length} actions: ${formatCount(budget)} ms), more than the ${formatCount(deadlineMs)} ms one call may take (timeout ${formatCount(timeoutMs)} ms, ${formatCount(PREVIEW_DEADLINE_MARGIN_MS)} ms kept to report back).`,
      { hint: "Split the waits over several act calls; the session keeps running between calls." },
    );
  return undefined;
}

/**
 * The checks the schema cannot make: the fields each op needs, complete actions, and the waits
 * of an `act` within one call's deadline.
 *
 * @param input - the validated input
 * @param settings - the engine's settings (name, deadline)
 * @returns the `INVALID_INPUT` failure, or `undefined` when the input is complete
 */
export function refuseIncompleteInput(
  input: PreviewInput,
  settings: EngineSettings,
): ToolFailure | undefined {
  const { name } = settings;
  switch (input.op) {
    case "open":
      return input.path === undefined
        ? fail("INVALID_INPUT", `Invalid input for ${name}: op "open" needs path.`, {
            hint: 'Send {op:"open", path:"your-artifact.html"}.',
          })
        : undefined;
    case "act":
      return checkAct((input.actions ?? []) as PreviewAction[], settings);
    case "read":
      return (input.queries ?? []).length === 0
        ? fail(
            "INVALID_INPUT",
            `Invalid input for ${name}: op "read" needs queries (1 to ${MAX_PREVIEW_QUERIES}).`,
            { hint: 'Send {op:"read", queries:[{css:"#score"}]}.' },
          )
        : undefined;
    case "eval":
      return input.code === undefined
        ? fail("INVALID_INPUT", `Invalid input for ${name}: op "eval" needs code.`, {
            hint: 'Send {op:"eval", code:"return document.title"}.',
          })
        : undefined;
    default:
      return undefined;
  }
}
