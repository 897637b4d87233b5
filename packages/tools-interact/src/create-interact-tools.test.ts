import { assertConformance } from "@agentool/contract/testing";
import { describe, expect, it } from "vitest";
import { createInteractTools } from "./create-interact-tools.js";
import { createRecordingHandler } from "./test-support/handlers.js";

describe("createInteractTools", () => {
  it("creates ask_user, confirm and notify that pass the conformance kit together", async () => {
    const tools = createInteractTools({ handler: createRecordingHandler(["answer", true]) });
    expect(tools.map((tool) => tool.name)).toEqual(["ask_user", "confirm", "notify"]);
    await assertConformance(tools, {
      samples: {
        ask_user: { question: "Which?", options: [{ label: "A" }, { label: "B" }] },
        confirm: { message: "Proceed?" },
        notify: { message: "Started." },
      },
    });
  });

  it("leaves notify out for a handler that cannot notify", () => {
    const tools = createInteractTools({ handler: { ask: () => "x" } });
    expect(tools.map((tool) => tool.name)).toEqual(["ask_user", "confirm"]);
  });

  it("shares timeoutMs, and each tool's own options win", () => {
    const [askUser, confirm] = createInteractTools({
      handler: createRecordingHandler(),
      timeoutMs: 60_000,
      confirm: { timeoutMs: 5_000, name: "confirm_action" },
    });
    expect(askUser?.description).toContain("within 1 minute");
    expect(confirm?.name).toBe("confirm_action");
    expect(confirm?.description).toContain("within 5 seconds");
  });

  it("has no default handler", () => {
    expect(() => createInteractTools({} as never)).toThrow(/handler/);
    expect(() =>
      createInteractTools({ handler: createRecordingHandler(), other: 1 } as never),
    ).toThrow(/other/);
  });
});
