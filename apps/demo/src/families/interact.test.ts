import { describe, expect, it } from "vitest";
import { runDemo } from "../run-demo.js";
import type { TranscriptEvent } from "../transcript.js";
import { coreFamily } from "./core.js";
import { createInteractFamily, createScriptedHandler } from "./interact.js";

function resultOf(events: readonly TranscriptEvent[], name: string) {
  const call = events.find((event) => event.type === "tool_call" && event.name === name);
  const id = call?.type === "tool_call" ? call.toolCallId : undefined;
  return events.find((event) => event.type === "tool_result" && event.toolCallId === id);
}

describe("interact family (scripted answers)", () => {
  it("asks, confirms and notifies, answered from the script", async () => {
    const exchanges: unknown[] = [];
    const family = createInteractFamily(
      createScriptedHandler((question, answer) => exchanges.push([question.type, answer])),
    );
    const run = await runDemo({ families: [coreFamily, family] });
    expect(run.summary.toolErrors).toBe(0);
    expect(run.summary.toolCallsByName).toMatchObject({ ask_user: 1, confirm: 1, notify: 1 });
    expect(exchanges).toEqual([
      ["ask_user", "The port mismatch"],
      ["confirm", true],
    ]);
    const ask = resultOf(run.events, "ask_user");
    expect(ask?.type === "tool_result" && ask.content).toBe("The user chose: The port mismatch");
    const confirm = resultOf(run.events, "confirm");
    expect(confirm?.type === "tool_result" && confirm.content).toBe(
      "The user confirmed: go ahead.",
    );
  });
});
