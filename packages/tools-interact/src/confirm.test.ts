import { AgentoolError } from "@agentool/contract";
import { assertConformance } from "@agentool/contract/testing";
import { describe, expect, it } from "vitest";
import { createConfirmTool, readConfirmation } from "./confirm.js";
import type { InteractionContext } from "./interaction-handler.js";
import {
  createRecordingHandler,
  createSteadyHandler,
  waitUntilAborted,
} from "./test-support/handlers.js";

describe("confirm", () => {
  it("passes the conformance kit", async () => {
    await assertConformance([createConfirmTool({ handler: createSteadyHandler(() => true) })], {
      samples: { confirm: { message: "Go ahead?" } },
    });
  });

  it("returns the person's yes and no", async () => {
    const handler = createRecordingHandler([true, false]);
    const tool = createConfirmTool({ handler });
    const yes = await tool.run({ message: "  Delete build/?  " });
    expect(yes).toEqual({ success: true, data: { confirmed: true, defaulted: false } });
    expect(tool.renderResult(yes)).toBe("The user confirmed: go ahead.");
    const no = await tool.run({ message: "Delete build/?", default: true });
    expect(no).toEqual({ success: true, data: { confirmed: false, defaulted: false } });
    expect(tool.renderResult(no)).toMatch(/^The user declined: do not go ahead/);
    expect(handler.questions).toEqual([
      { type: "confirm", message: "Delete build/?", default: false },
      { type: "confirm", message: "Delete build/?", default: true },
    ]);
  });

  it("reads yes/no text from hosts that resume with strings", () => {
    expect(["yes", " Y ", "true", "OK"].map(readConfirmation)).toEqual([true, true, true, true]);
    expect(["no", "N", "false", "cancel"].map(readConfirmation)).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect([undefined, null, "", "maybe", ["yes"]].map(readConfirmation)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("returns the default and says it defaulted when nobody answers", async () => {
    const tool = createConfirmTool({ handler: createRecordingHandler([undefined, "", "maybe"]) });
    const first = await tool.run({ message: "Send the email?" });
    expect(first).toEqual({
      success: true,
      data: { confirmed: false, defaulted: true, reason: "no_answer" },
    });
    expect(tool.renderResult(first)).toBe(
      "The user gave no yes/no answer, so this defaulted to no: do not go ahead, and tell the user what you skipped.",
    );
    const second = await tool.run({ message: "Send the email?", default: true });
    expect(second).toMatchObject({ data: { confirmed: true, defaulted: true } });
    const third = await tool.run({ message: "Send the email?" });
    expect(third).toMatchObject({
      data: { confirmed: false, defaulted: true, reason: "no_answer" },
    });
  });

  it("returns the default on timeout, saying so, and aborts the handler's signal", async () => {
    let seen: InteractionContext | undefined;
    const wait = (_question: unknown, context: InteractionContext) => {
      seen = context;
      return waitUntilAborted(context.signal);
    };
    const tool = createConfirmTool({
      timeoutMs: 40,
      handler: createRecordingHandler([wait, wait]),
    });
    const result = await tool.run({ message: "Proceed?" });
    expect(result).toEqual({
      success: true,
      data: { confirmed: false, defaulted: true, reason: "timeout" },
    });
    expect(tool.renderResult(result)).toBe(
      "The user did not answer in time, so this defaulted to no: do not go ahead, and tell the user what you skipped.",
    );
    expect(seen?.signal.aborted).toBe(true);
    const withDefault = await tool.run({ message: "Proceed?", default: true });
    expect(withDefault).toMatchObject({
      data: { confirmed: true, defaulted: true, reason: "timeout" },
    });
    expect(tool.renderResult(withDefault)).toMatch(/defaulted to yes: go ahead/);
  });

  it("stops waiting when the run is aborted", async () => {
    const tool = createConfirmTool({
      handler: createRecordingHandler([(_question, context) => waitUntilAborted(context.signal)]),
    });
    const controller = new AbortController();
    const pending = tool.run({ message: "Proceed?" }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    expect(await pending).toMatchObject({ success: false, error: { code: "ABORTED" } });
  });

  it("turns a failing handler into INTERNAL telling the model not to act", async () => {
    const tool = createConfirmTool({
      handler: createRecordingHandler([() => Promise.reject(new Error("UI gone"))]),
    });
    const result = await tool.run({ message: "Proceed?" });
    expect(result).toMatchObject({
      success: false,
      error: {
        code: "INTERNAL",
        message: "The confirmation could not be put to the user: UI gone.",
      },
    });
    if (!result.success) expect(result.error.hint).toMatch(/do not do the action/);
  });

  it("refuses an empty or oversized message without asking", async () => {
    const handler = createRecordingHandler([true]);
    const tool = createConfirmTool({ handler, maxMessageCharacters: 10 });
    expect(await tool.run({ message: "  " })).toMatchObject({ error: { code: "INVALID_INPUT" } });
    const long = await tool.run({ message: "x".repeat(11) });
    expect(long).toMatchObject({ error: { code: "INVALID_INPUT" } });
    if (!long.success) expect(long.error.message).toContain("11 characters; the limit is 10");
    expect(handler.questions).toEqual([]);
  });

  it("requires a handler", () => {
    expect(() => createConfirmTool({ handler: { notify: () => {} } } as never)).toThrow(
      AgentoolError,
    );
  });
});
