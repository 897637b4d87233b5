import { truncateText } from "@agentool/contract";
import { formatPlanChecklist, type PlanStep } from "@agentool/tools-core";

/** One thing that happened during a demo run, in order. */
export type TranscriptEvent =
  | {
      type: "start";
      /** `"scripted"` (fake model) or `"live"` (a real model). */
      mode: "scripted" | "live";
      /** The model's name. */
      model: string;
      /** Where the temporary workspace is. */
      workspaceRoot: string;
      /** The tools the agent has. */
      tools: string[];
    }
  | { type: "user"; text: string }
  | { type: "assistant"; text: string }
  | {
      type: "tool_call";
      toolCallId: string;
      name: string;
      arguments: Record<string, unknown>;
    }
  | {
      type: "tool_result";
      toolCallId: string;
      name: string;
      success: boolean;
      /** The model-facing text of the result. */
      content: string;
      /** The error code, for a failure. */
      errorCode?: string;
      /** The accepted plan, when the result is an `update_plan` success. */
      plan?: PlanStep[];
    }
  | { type: "final"; text: string }
  | { type: "failure"; message: string };

/** Totals of a demo run. */
export interface DemoSummary {
  /** `"scripted"` or `"live"`. */
  mode: "scripted" | "live";
  /** The model's name. */
  model: string;
  /** Tool calls made, in all. */
  toolCalls: number;
  /** Tool calls per tool name. */
  toolCallsByName: Record<string, number>;
  /** Tool results that were failures. */
  toolErrors: number;
  /** Times the model was asked for a response. */
  modelTurns: number;
  /** Wall-clock time of the run. */
  durationMs: number;
  /** The agent's final answer, if it gave one. */
  finalAnswer: string | undefined;
  /** The last plan saved through `update_plan`'s `onUpdate` hook. */
  finalPlan: PlanStep[] | undefined;
  /** Why the run stopped early, if it did. */
  failure: string | undefined;
}

const MAX_ARGUMENT_CHARACTERS = 500;
const MAX_RESULT_LINES = 12;
const MAX_RESULT_CHARACTERS = 900;
const RULE = "─".repeat(72);

function indent(text: string, prefix = "    "): string {
  return text
    .split("\n")
    .map((line) => `${prefix}${line}`)
    .join("\n");
}

function formatArguments(name: string, values: Record<string, unknown>): string {
  // A plan's steps are printed as a checklist with its result; keep the call line short.
  const shown =
    Array.isArray(values.plan) && name.includes("plan")
      ? { ...values, plan: `[${values.plan.length} step${values.plan.length === 1 ? "" : "s"}]` }
      : values;
  let json: string;
  try {
    json = JSON.stringify(shown) ?? "{}";
  } catch {
    json = String(shown);
  }
  return json.length <= MAX_ARGUMENT_CHARACTERS
    ? json
    : `${json.slice(0, MAX_ARGUMENT_CHARACTERS)}… (${json.length - MAX_ARGUMENT_CHARACTERS} more characters)`;
}

function countDone(plan: readonly PlanStep[]): number {
  return plan.filter((item) => item.status === "completed").length;
}

/**
 * Formats one transcript event as readable text (no colours, so it reads the same in a log).
 *
 * @param event - the event
 * @returns one or more lines
 * @example
 * formatEvent({ type: "user", text: "Plan the release." }); // "user › Plan the release."
 */
export function formatEvent(event: TranscriptEvent): string {
  switch (event.type) {
    case "start":
      return [
        RULE,
        `agentool demo — ${event.mode === "scripted" ? "scripted model (no API key needed)" : `live model ${event.model}`}`,
        `workspace: ${event.workspaceRoot} (a temporary copy)`,
        `tools: ${event.tools.join(", ")}`,
        RULE,
      ].join("\n");
    case "user":
      return `\nuser › ${event.text}`;
    case "assistant":
      return `\nassistant › ${event.text}`;
    case "tool_call":
      return `\n→ ${event.name} ${formatArguments(event.name, event.arguments)}`;
    case "tool_result": {
      if (event.plan !== undefined) {
        const header = `← ${event.name} ✓ plan (${countDone(event.plan)}/${event.plan.length} done)`;
        return `${header}\n${indent(formatPlanChecklist(event.plan))}`;
      }
      const mark = event.success ? "✓" : `✗ ${event.errorCode ?? "ERROR"}`;
      const body = truncateText(event.content, {
        maxLines: MAX_RESULT_LINES,
        maxCharacters: MAX_RESULT_CHARACTERS,
        next: "the demo shortens results; the model saw all of it",
      }).text;
      return `← ${event.name} ${mark}\n${indent(body)}`;
    }
    case "final":
      return `\nassistant (final) ›\n${indent(event.text, "  ")}`;
    case "failure":
      return `\n✗ the run stopped: ${event.message}`;
  }
}

/**
 * Formats the closing summary: tool calls made (per tool), errors, model turns, time and the
 * final plan.
 *
 * @param summary - the run's totals
 * @returns several lines of text
 * @example
 * console.log(formatSummary(run.summary));
 */
export function formatSummary(summary: DemoSummary): string {
  const perTool = Object.entries(summary.toolCallsByName)
    .map(([name, count]) => `${name} ×${count}`)
    .join(", ");
  const lines = [
    "",
    RULE,
    "summary",
    `  tool calls:  ${summary.toolCalls}${perTool.length > 0 ? ` (${perTool})` : ""}`,
    `  errors:      ${summary.toolErrors}`,
    `  model turns: ${summary.modelTurns}`,
    `  time:        ${(summary.durationMs / 1000).toFixed(2)} s`,
  ];
  if (summary.finalPlan !== undefined) {
    lines.push(
      `  final plan:  ${countDone(summary.finalPlan)}/${summary.finalPlan.length} done (saved by onUpdate)`,
    );
  }
  lines.push(
    `  outcome:     ${summary.failure === undefined ? "finished" : `stopped — ${summary.failure}`}`,
  );
  lines.push(RULE);
  return lines.join("\n");
}

/**
 * Formats a whole run: every event, then the summary.
 *
 * @param run - the events and the summary
 * @returns the transcript text
 * @example
 * process.stdout.write(`${formatTranscript(await runDemo())}\n`);
 */
export function formatTranscript(run: {
  events: readonly TranscriptEvent[];
  summary: DemoSummary;
}): string {
  return [...run.events.map(formatEvent), formatSummary(run.summary)].join("\n");
}
