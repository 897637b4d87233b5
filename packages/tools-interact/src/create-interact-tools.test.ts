import { assertConformance, checkConformance } from "@agentool/contract/testing";
import { describe, expect, it } from "vitest";
import { createAskUserTool } from "./ask-user.js";
import { createConfirmTool } from "./confirm.js";
import { createInteractTools } from "./create-interact-tools.js";
import { createNotifyTool } from "./notify.js";
import { createRecordingHandler, createSteadyHandler } from "./test-support/handlers.js";

// A person who gives the same answer to the same question: the kit runs each read-only sample
// (ask_user, confirm) twice and compares, so no tool is listed as nondeterministic. None of the
// three cuts its output into pages (an over-long answer is capped, not paged), so there are no
// cutSamples.
const steady = () => createSteadyHandler((question) => (question.type === "confirm" ? true : "A"));

const samples = {
  ask_user: { question: "Which?", options: ["A", { label: "B", description: "the other" }] },
  confirm: { message: "Proceed?", timeout_seconds: 30 },
  notify: { message: "Started." },
};

describe("createInteractTools", () => {
  it("creates ask_user, confirm and notify that pass the conformance kit together", async () => {
    const tools = createInteractTools({ handler: steady() });
    expect(tools.map((tool) => tool.name)).toEqual(["ask_user", "confirm", "notify"]);
    await assertConformance(tools, { samples });
  });

  it("partial sets pass too: without notify, and each tool alone", async () => {
    const handler = { ask: steady().ask };
    const pair = createInteractTools({ handler });
    expect(pair.map((tool) => tool.name)).toEqual(["ask_user", "confirm"]);
    await assertConformance(pair, {
      samples: { ask_user: samples.ask_user, confirm: samples.confirm },
    });
    await assertConformance([createAskUserTool({ handler })], {
      samples: { ask_user: samples.ask_user },
    });
    await assertConformance([createNotifyTool({ handler: steady() })], {
      samples: { notify: samples.notify },
    });
  });

  it("descriptions name a sibling only when it is mounted", async () => {
    const [askUser, , notify] = createInteractTools({ handler: steady() });
    expect(askUser?.description).toContain("use confirm for a yes/no before a risky action");
    expect(notify?.description).toContain("It is not a question (use ask_user)");
    expect(notify?.description).toContain("not a way to ask permission (use confirm)");
    expect(createAskUserTool({ handler: steady() }).description).not.toMatch(/\bconfirm\b/);
    const alone = createNotifyTool({ handler: steady() }).description;
    expect(alone).not.toContain("ask_user");
    expect(alone).not.toMatch(/use confirm/);
    // a renamed sibling is not named by its old name
    const renamed = createInteractTools({
      handler: steady(),
      askUser: { name: "ask_human" },
    });
    expect(renamed[2]?.description).not.toContain("ask_user");
    // and the kit would catch a description naming an absent tool
    const lying = createNotifyTool({ handler: steady(), mountedTools: ["ask_user"] });
    const report = await checkConformance([lying], { samples: { notify: samples.notify } });
    expect(report.violations.map((violation) => violation.rule)).toContain(
      "description-names-absent-tool",
    );
  });

  it("descriptions speak only of what the rendered text says (no data keys)", () => {
    for (const tool of createInteractTools({ handler: steady() })) {
      const texts = [
        tool.description,
        ...Object.values(tool.input.shape as Record<string, { description?: string }>).map(
          (field) => field.description ?? "",
        ),
      ];
      for (const text of texts) {
        expect(text).not.toMatch(/\{ ?(confirmed|sent|answered|selected_options)/);
        expect(text).not.toMatch(/\b(confirmed is|defaulted:|has_more|selected_options)\b/);
      }
    }
  });

  it("leaves notify out for a handler that cannot notify", () => {
    const tools = createInteractTools({ handler: { ask: () => "x" } });
    expect(tools.map((tool) => tool.name)).toEqual(["ask_user", "confirm"]);
  });

  it("shares timeoutMs and maxTimeoutMs, and each tool's own options win", () => {
    const [askUser, confirm] = createInteractTools({
      handler: createRecordingHandler(),
      timeoutMs: 60_000,
      maxTimeoutMs: 120_000,
      confirm: { timeoutMs: 5_000, maxTimeoutMs: 5_000, name: "confirm_action" },
    });
    expect(askUser?.description).toContain(
      "within 1 minute (timeout_seconds changes it, up to 2 minutes)",
    );
    expect(confirm?.name).toBe("confirm_action");
    expect(confirm?.description).toContain("within 5 seconds (timeout_seconds can shorten it)");
    expect(askUser?.parseInput({ question: "?", timeout_seconds: 121 }).success).toBe(false);
    expect(askUser?.parseInput({ question: "?", timeout_seconds: 120 }).success).toBe(true);
  });

  it("has no default handler", () => {
    expect(() => createInteractTools({} as never)).toThrow(/handler/);
    expect(() =>
      createInteractTools({ handler: createRecordingHandler(), other: 1 } as never),
    ).toThrow(/other/);
  });
});

describe("per-call timeout_seconds, bounded by the host's maximum", () => {
  it("a call may shorten the wait; the handler hears the call's wait", async () => {
    const handler = createRecordingHandler(["x", true]);
    await createAskUserTool({ handler }).run({ question: "?", timeout_seconds: 30 });
    await createConfirmTool({ handler }).run({ message: "Go?", timeout_seconds: 45 });
    expect(handler.contexts.map((context) => context.timeoutMs)).toEqual([30_000, 45_000]);
  });

  it("without maxTimeoutMs a call may not wait longer than timeoutMs (INVALID_INPUT naming the field)", async () => {
    const tool = createConfirmTool({ handler: createRecordingHandler([true]), timeoutMs: 60_000 });
    const result = await tool.run({ message: "Go?", timeout_seconds: 61 });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error.code).toBe("INVALID_INPUT");
    expect(result.error.message).toContain("timeout_seconds");
    expect(tool.input.shape.timeout_seconds.description).toContain("default 60, at most 60");
  });

  it("maxTimeoutMs lets a call wait longer, and the contract backstop covers the longest wait", async () => {
    const handler = createRecordingHandler(["x"]);
    const tool = createAskUserTool({ handler, timeoutMs: 60_000, maxTimeoutMs: 3_600_000 });
    expect(tool.timeoutMs).toBeGreaterThan(3_600_000);
    await tool.run({ question: "?", timeout_seconds: 1_800 });
    expect(handler.contexts[0]?.timeoutMs).toBe(1_800_000);
    expect(() => createAskUserTool({ handler, timeoutMs: 60_000, maxTimeoutMs: 30_000 })).toThrow(
      /maxTimeoutMs/,
    );
  });

  it("a short wait really times out: ask_user fails with TIMEOUT, confirm defaults", async () => {
    const never = () => new Promise<never>(() => {});
    const askUser = createAskUserTool({
      handler: createRecordingHandler([never]),
      timeoutMs: 1_000,
      maxTimeoutMs: 0,
    });
    const started = Date.now();
    const asked = await askUser.run({ question: "?", timeout_seconds: 1 });
    expect(asked).toMatchObject({ success: false, error: { code: "TIMEOUT" } });
    expect(Date.now() - started).toBeLessThan(3_000);
    const confirm = createConfirmTool({
      handler: createRecordingHandler([never]),
      timeoutMs: 1_000,
    });
    const confirmed = await confirm.run({ message: "Go?", timeout_seconds: 1, default: true });
    expect(confirmed).toEqual({
      success: true,
      data: { confirmed: true, defaulted: true, reason: "timeout" },
    });
  });
});

describe("silent aliases", () => {
  it("ask_user: prompt / message → question, choices → options, multi_select → allow_multiple, timeout → timeout_seconds", async () => {
    const handler = createRecordingHandler([["a", "b"]]);
    const result = await createAskUserTool({ handler }).run({
      prompt: "Which?",
      choices: ["a", "b"],
      multi_select: true,
      timeout: 20,
    });
    expect(result).toMatchObject({ success: true, data: { selected_options: ["a", "b"] } });
    expect(handler.questions[0]).toEqual({
      type: "ask_user",
      question: "Which?",
      options: [{ label: "a" }, { label: "b" }],
      allow_multiple: true,
    });
    expect(handler.contexts[0]?.timeoutMs).toBe(20_000);
    const again = createRecordingHandler(["ok"]);
    await createAskUserTool({ handler: again }).run({ message: "Name?" });
    expect(again.questions[0]).toMatchObject({ question: "Name?" });
  });

  it("confirm: question / prompt → message, default_value → default; notify: text → message, severity → level", async () => {
    const handler = createRecordingHandler([undefined]);
    const result = await createConfirmTool({ handler }).run({
      question: "Go?",
      default_value: true,
    });
    expect(handler.questions[0]).toEqual({ type: "confirm", message: "Go?", default: true });
    expect(result).toMatchObject({ data: { confirmed: true, defaulted: true } });
    const notifier = createRecordingHandler();
    await createNotifyTool({ handler: notifier }).run({ text: "Half way.", severity: "warning" });
    expect(notifier.notifications).toEqual([
      { type: "notify", message: "Half way.", level: "warning" },
    ]);
  });

  it("an unknown field still gets a did-you-mean", async () => {
    const result = await createAskUserTool({ handler: createRecordingHandler() }).run({
      question: "?",
      allow_multiple_answers: true,
    });
    expect(!result.success && result.error.message).toMatch(/did you mean "allow_multiple"/);
  });
});

describe("descriptions teach without restating the schema (issue 28 point 9)", () => {
  it("each default description is short and no field description opens with 'Optional:'", () => {
    const limits = { ask_user: 560, confirm: 420, notify: 300 } as Record<string, number>;
    for (const tool of createInteractTools({ handler: createRecordingHandler() })) {
      expect(tool.description.length, tool.name).toBeLessThanOrEqual(limits[tool.name] ?? 0);
      for (const [field, schema] of Object.entries(tool.input.shape)) {
        const text = (schema as { description?: string }).description ?? "";
        expect(text, `${tool.name}.${field}`).not.toMatch(/^Optional:/);
      }
    }
  });
});
