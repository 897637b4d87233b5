import { AgentoolError } from "@agentool/contract";
import { assertConformance } from "@agentool/contract/testing";
import { describe, expect, it } from "vitest";
import { createNotifyTool } from "./notify.js";
import { createRecordingHandler } from "./test-support/handlers.js";

describe("notify", () => {
  it("passes the conformance kit", async () => {
    await assertConformance([createNotifyTool({ handler: createRecordingHandler() })], {
      samples: { notify: { message: "Halfway there." } },
    });
  });

  it("hands the message to the handler and returns sent without waiting", async () => {
    const handler = createRecordingHandler();
    let resolveDelivery: () => void = () => {};
    handler.notify = (notification) => {
      handler.notifications.push(notification);
      return new Promise<void>((resolve) => {
        resolveDelivery = resolve;
      });
    };
    const tool = createNotifyTool({ handler });
    const result = await tool.run({ message: "  Indexed 1,200 files. ", level: "warning" });
    expect(result).toEqual({ success: true, data: { sent: true, level: "warning" } });
    expect(handler.notifications).toEqual([
      { type: "notify", message: "Indexed 1,200 files.", level: "warning" },
    ]);
    expect(tool.renderResult(result)).toBe(
      "Notification sent (warning). The user is not expected to reply; continue.",
    );
    resolveDelivery();
    expect(await tool.run({ message: "Done." })).toMatchObject({ data: { level: "info" } });
  });

  it("never breaks on a failing handler", async () => {
    const rejecting = createNotifyTool({
      handler: { ask: () => undefined, notify: () => Promise.reject(new Error("offline")) },
    });
    expect(await rejecting.run({ message: "hi" })).toMatchObject({ data: { sent: true } });
    const throwing = createNotifyTool({
      handler: {
        ask: () => undefined,
        notify: () => {
          throw new Error("no display");
        },
      },
    });
    const result = await throwing.run({ message: "hi" });
    expect(result).toEqual({
      success: true,
      data: { sent: false, level: "info", reason: "no display" },
    });
    expect(throwing.renderResult(result)).toMatch(/not delivered \(no display\)/);
  });

  it("refuses empty, oversized and wrong-level messages", async () => {
    const tool = createNotifyTool({ handler: createRecordingHandler(), maxMessageCharacters: 5 });
    expect(await tool.run({ message: " " })).toMatchObject({ error: { code: "INVALID_INPUT" } });
    expect(await tool.run({ message: "123456" })).toMatchObject({
      error: { code: "INVALID_INPUT" },
    });
    const level = await tool.run({ message: "hi", level: "debug" });
    expect(level).toMatchObject({ error: { code: "INVALID_INPUT" } });
    if (!level.success) expect(level.error.message).toContain("level");
  });

  it("needs a handler with notify", () => {
    expect(() => createNotifyTool({ handler: { ask: () => undefined } })).toThrow(/has no notify/);
    expect(() => createNotifyTool({} as never)).toThrow(AgentoolError);
  });
});
