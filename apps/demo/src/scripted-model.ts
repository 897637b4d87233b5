import { AIMessage } from "@langchain/core/messages";
import { type FakeBuiltModel, fakeModel } from "@langchain/core/testing";
import type { DemoFamily } from "./families/demo-family.js";

/** One tool call the scripted model makes. */
export interface ScriptedToolCall {
  /** The tool's name, e.g. `"think"`. */
  name: string;
  /** The arguments, as the model would send them. */
  arguments: Record<string, unknown>;
}

/** One response of the scripted model: optional text and the tool calls it makes. */
export interface ScriptedTurn {
  /** What the model says alongside its tool calls (or its final answer when there are none). */
  text?: string;
  /** The tool calls, run in parallel by the tool node. */
  toolCalls: ScriptedToolCall[];
}

/** The step a plan always ends with: answering the user. */
export const REPORT_STEP = "Report the plan and the first fix to the user";

/**
 * Writes the whole scripted conversation from the families' tasks: publish the plan, do each
 * task's turns, tick the plan after each task, then answer. Adding a family's tasks adds its
 * steps to the plan and its turns to the script; nothing else changes.
 *
 * @param families - the demo families, in the order their tasks run
 * @returns the model's responses, in order (the last one is the final answer)
 * @example
 * const turns = buildScript([coreFamily]);
 * const model = createScriptedModel(turns);
 */
export function buildScript(families: readonly DemoFamily[]): ScriptedTurn[] {
  const tasks = families.flatMap((family) => family.tasks);
  const steps = [...tasks.map((task) => task.step), REPORT_STEP];
  const planAt = (current: number) =>
    steps.map((step, index) => ({
      step,
      status: index < current ? "completed" : index === current ? "in_progress" : "pending",
    }));

  const turns: ScriptedTurn[] = [
    {
      text: "This takes several steps, so I will publish a plan first.",
      toolCalls: [
        {
          name: "update_plan",
          arguments: {
            explanation: "Initial plan.",
            plan: planAt(0),
          },
        },
      ],
    },
  ];
  tasks.forEach((task, index) => {
    turns.push(...task.turns);
    const next = steps[index + 1] ?? REPORT_STEP;
    turns.push({
      toolCalls: [
        {
          name: "update_plan",
          arguments: { explanation: `Done: ${task.step}. Next: ${next}.`, plan: planAt(index + 1) },
        },
      ],
    });
  });
  turns.push({
    toolCalls: [
      {
        name: "update_plan",
        arguments: { explanation: "Everything is done.", plan: planAt(steps.length) },
      },
    ],
  });
  const findings = families.flatMap((family) => family.findings);
  turns.push({
    text: ["Here is where things stand:", ...findings.map((finding) => `- ${finding}`)].join("\n"),
    toolCalls: [],
  });
  return turns;
}

/**
 * Creates a deterministic chat model that answers with the given turns, one per call, using
 * `fakeModel()` from `@langchain/core/testing`. Tool call ids are `call_1`, `call_2`, … in order.
 * Calling it more times than there are turns throws, so a script that runs out fails loudly.
 *
 * @param turns - the responses, in order
 * @returns a model to pass to `createAgent`
 * @example
 * const model = createScriptedModel([{ text: "Done.", toolCalls: [] }]);
 */
export function createScriptedModel(turns: readonly ScriptedTurn[]): FakeBuiltModel {
  const model = fakeModel();
  let callNumber = 0;
  turns.forEach((turn, index) => {
    const toolCalls = turn.toolCalls.map((call) => {
      callNumber += 1;
      return {
        id: `call_${callNumber}`,
        name: call.name,
        args: call.arguments,
        type: "tool_call" as const,
      };
    });
    model.respond(
      new AIMessage({
        id: `scripted_${index + 1}`,
        content: turn.text ?? "",
        tool_calls: toolCalls,
      }),
    );
  });
  return model;
}
