import { AgentoolError, TRUNCATION_MARKER_PATTERN, toJsonSchema } from "@agentool/contract";
import { assertConformance } from "@agentool/contract/testing";
import { describe, expect, it } from "vitest";
import {
  createAskUserTool,
  DEFAULT_ASK_USER_TIMEOUT_MS,
  DEFAULT_MAX_ANSWER_CHARACTERS,
} from "./ask-user.js";
import type { InteractionContext } from "./interaction-handler.js";
import {
  createRecordingHandler,
  createSteadyHandler,
  waitUntilAborted,
} from "./test-support/handlers.js";

const twoOptions = [
  { label: "Staging", description: "  the test cluster " },
  { label: "Production" },
];

describe("ask_user", () => {
  it("passes the conformance kit alone (its description then names no other tool)", async () => {
    const tool = createAskUserTool({ handler: createSteadyHandler(() => "fine") });
    expect(tool.description).not.toMatch(/\bconfirm\b/);
    await assertConformance([tool], {
      samples: { ask_user: { question: "Which one?", options: ["This one", "That one"] } },
    });
  });

  it("hands the handler the trimmed question and returns the trimmed answer", async () => {
    const handler = createRecordingHandler(["  Use the blue one.  \n"]);
    const tool = createAskUserTool({ handler });
    const result = await tool.run(
      { question: "  Which colour?  " },
      { toolCallId: "call-1", threadId: "thread-9" },
    );
    expect(result).toEqual({
      success: true,
      data: {
        answered: true,
        answer: "Use the blue one.",
        selected_options: [],
        answer_truncated: false,
      },
    });
    expect(handler.questions).toEqual([
      { type: "ask_user", question: "Which colour?", options: [], allow_multiple: false },
    ]);
    expect(handler.contexts[0]).toMatchObject({
      toolCallId: "call-1",
      threadId: "thread-9",
      timeoutMs: DEFAULT_ASK_USER_TIMEOUT_MS,
    });
    expect(handler.contexts[0]?.signal.aborted).toBe(false);
    expect(tool.renderResult(result)).toBe("The user answered: Use the blue one.");
  });

  it("recognises a chosen option (any case) and renders it as a choice", async () => {
    const handler = createRecordingHandler(["production"]);
    const tool = createAskUserTool({ handler });
    const result = await tool.run({ question: "Where to?", options: twoOptions });
    expect(handler.questions[0]).toEqual({
      type: "ask_user",
      question: "Where to?",
      options: [{ label: "Staging", description: "the test cluster" }, { label: "Production" }],
      allow_multiple: false,
    });
    expect(result).toMatchObject({
      success: true,
      data: { answer: "Production", selected_options: ["Production"] },
    });
    expect(tool.renderResult(result)).toBe("The user chose: Production");
  });

  it("keeps an answer in the person's own words when options were offered", async () => {
    const tool = createAskUserTool({ handler: createRecordingHandler(["Neither — wait a day"]) });
    const result = await tool.run({ question: "Where to?", options: twoOptions });
    expect(result).toMatchObject({
      data: { answer: "Neither — wait a day", selected_options: [] },
    });
  });

  it("returns a multi-select as the chosen labels, from an array or a comma list", async () => {
    const options = [{ label: "Linux" }, { label: "macOS" }, { label: "Windows" }];
    const handler = createRecordingHandler([["Windows", " linux "], "macos, WINDOWS"]);
    const tool = createAskUserTool({ handler });
    const first = await tool.run({ question: "Which?", options, allow_multiple: true });
    expect(handler.questions[0]).toMatchObject({ allow_multiple: true });
    expect(first).toMatchObject({
      data: { answer: "Windows, Linux", selected_options: ["Windows", "Linux"] },
    });
    const second = await tool.run({ question: "Which?", options, allow_multiple: true });
    expect(second).toMatchObject({
      data: { answer: "macOS, Windows", selected_options: ["macOS", "Windows"] },
    });
  });

  it("ignores allow_multiple without options", async () => {
    const handler = createRecordingHandler(["x"]);
    await createAskUserTool({ handler }).run({ question: "Q?", allow_multiple: true });
    expect(handler.questions[0]).toMatchObject({ options: [], allow_multiple: false });
  });

  it.each([
    ["no options", [], /options is empty; give 1 to 4 options/],
    [
      "five options",
      ["a", "b", "c", "d", "e"].map((label) => ({ label })),
      /options has 5 entries; the limit is 4/,
    ],
    ["an empty label", [{ label: "ok" }, { label: "   " }], /options\[1\]\.label is empty/],
    [
      "duplicate labels",
      [{ label: "Yes" }, { label: "No" }, { label: " yes " }],
      /options\[2\]\.label "yes" repeats options\[0\]\.label; labels must be unique/,
    ],
    ["a huge label", [{ label: "x".repeat(101) }], /options\[0\]\.label is 101 characters/],
  ])("refuses %s without asking anyone", async (_label, options, message) => {
    const handler = createRecordingHandler(["never"]);
    const result = await createAskUserTool({ handler }).run({ question: "Pick", options });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error.code).toBe("INVALID_INPUT");
    expect(result.error.message).toMatch(message);
    expect(result.error.hint).toMatch(/ask again/);
    expect(handler.questions).toEqual([]);
  });

  it("lists every problem of a question at once", async () => {
    const result = await createAskUserTool({ handler: createRecordingHandler() }).run({
      question: " ",
      options: [{ label: "" }, { label: "a" }, { label: "A" }],
    });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error.message).toContain("question is empty");
    expect(result.error.message).toContain("options[0].label is empty");
    expect(result.error.message).toContain('options[2].label "A" repeats options[1].label');
  });

  it("honours a smaller maxOptions option in the schema text and the check", async () => {
    const tool = createAskUserTool({ handler: createRecordingHandler(), maxOptions: 2 });
    expect(tool.description).toContain("Offer 1 to 2 options");
    const result = await tool.run({
      question: "?",
      options: [{ label: "a" }, { label: "b" }, { label: "c" }],
    });
    expect(result.success).toBe(false);
  });

  it("caps a very long answer: data keeps the text, the rendered text adds the standard marker", async () => {
    const long = `${"word ".repeat(3_000)}end`;
    const tool = createAskUserTool({ handler: createRecordingHandler([long]) });
    const result = await tool.run({ question: "Tell me everything" });
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.data.answer_truncated).toBe(true);
    expect(result.data.answer).toBe(long.slice(0, DEFAULT_MAX_ANSWER_CHARACTERS));
    expect(result.data.answer_characters).toBe(long.length);
    expect(result.data.answer).not.toMatch(TRUNCATION_MARKER_PATTERN);
    const [, marker] = (tool.renderResult(result) as string).split("\n");
    expect(marker).toMatch(TRUNCATION_MARKER_PATTERN);
    expect(marker).toContain(`${(long.length - 4_000).toLocaleString("en-US")} more characters`);
    expect(marker).toContain("ask the user a narrower follow-up question");
  });

  it("honours maxAnswerCharacters", async () => {
    const tool = createAskUserTool({
      handler: createRecordingHandler(["abcdefghij"]),
      maxAnswerCharacters: 4,
    });
    const result = await tool.run({ question: "?" });
    expect(result).toMatchObject({
      data: { answer: "abcd", answer_truncated: true, answer_characters: 10 },
    });
    expect(tool.renderResult(result)).toBe(
      "The user answered: abcd\n…[truncated: 6 more characters — the rest of the answer was not kept; if you need it, ask the user a narrower follow-up question]",
    );
  });

  it.each([
    ["undefined", undefined],
    ["null", null],
    ["blank text", "   "],
    ["an empty list", []],
  ])("says nobody answered when the handler resolves with %s", async (_label, answer) => {
    const tool = createAskUserTool({ handler: createRecordingHandler([answer]) });
    const result = await tool.run({ question: "Anyone?" });
    expect(result).toEqual({
      success: true,
      data: { answered: false, answer: "", selected_options: [], answer_truncated: false },
    });
    expect(tool.renderResult(result)).toMatch(/no answer .*Proceed on your own judgement/);
  });

  it("turns a throwing or rejecting handler into INTERNAL with the next step", async () => {
    const handler = createRecordingHandler([
      () => {
        throw new Error("no terminal attached");
      },
      () => Promise.reject(new Error("socket closed")),
    ]);
    const tool = createAskUserTool({ handler });
    for (const detail of ["no terminal attached", "socket closed"]) {
      const result = await tool.run({ question: "Q?" });
      expect(result).toMatchObject({
        success: false,
        error: {
          code: "INTERNAL",
          message: `The question could not be put to the user: ${detail}.`,
        },
      });
      if (!result.success) expect(result.error.hint).toMatch(/Proceed on your own judgement/);
    }
  });

  it("refuses an answer it cannot read (a handler bug)", async () => {
    const tool = createAskUserTool({
      handler: createRecordingHandler([42 as unknown as string]),
    });
    const result = await tool.run({ question: "Q?" });
    expect(result).toMatchObject({ success: false, error: { code: "INTERNAL" } });
    if (!result.success) expect(result.error.message).toContain("(number)");
  });

  it("times out with a TIMEOUT that tells the model to proceed on its own judgement", async () => {
    let seen: InteractionContext | undefined;
    const tool = createAskUserTool({
      timeoutMs: 60,
      handler: createRecordingHandler([
        (_question, context) => {
          seen = context;
          return waitUntilAborted(context.signal);
        },
      ]),
    });
    const started = Date.now();
    const result = await tool.run({ question: "Still there?" });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(result).toMatchObject({
      success: false,
      error: {
        code: "TIMEOUT",
        message:
          "The user did not answer within 60 ms. Proceed on your own judgement: make the most reasonable assumption, continue, and tell the user which assumption you made.",
      },
    });
    expect(seen?.timeoutMs).toBe(60);
    expect(seen?.signal.aborted).toBe(true);
  });

  it("says 10 minutes in the description and in the contract timeout backstop", () => {
    const tool = createAskUserTool({ handler: createRecordingHandler() });
    expect(tool.description).toContain("within 10 minutes");
    expect(tool.timeoutMs).toBeGreaterThan(DEFAULT_ASK_USER_TIMEOUT_MS);
    expect(createAskUserTool({ handler: createRecordingHandler(), timeoutMs: 0 }).timeoutMs).toBe(
      0,
    );
  });

  it("stops waiting when the run is aborted, and aborts the handler's signal", async () => {
    let seen: InteractionContext | undefined;
    const tool = createAskUserTool({
      handler: createRecordingHandler([
        (_question, context) => {
          seen = context;
          return waitUntilAborted(context.signal);
        },
      ]),
    });
    const controller = new AbortController();
    const pending = tool.run({ question: "Q?" }, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(seen?.signal.aborted).toBe(false);
    controller.abort();
    const result = await pending;
    expect(result).toMatchObject({ success: false, error: { code: "ABORTED" } });
    expect(seen?.signal.aborted).toBe(true);
  });

  it("requires a handler and rejects unknown options", () => {
    expect(() => createAskUserTool(undefined as never)).toThrow(AgentoolError);
    expect(() => createAskUserTool({} as never)).toThrow(/handler.*there is no default/);
    expect(() =>
      createAskUserTool({ handler: createRecordingHandler(), timeout: 5 } as never),
    ).toThrow(/timeout/);
    expect(() => createAskUserTool({ handler: createRecordingHandler(), timeoutMs: -1 })).toThrow(
      AgentoolError,
    );
  });

  it("takes name and description overrides", () => {
    const tool = createAskUserTool({
      handler: createRecordingHandler(),
      name: "ask_human",
      description: "Ask the human operator a question when blocked.",
    });
    expect(tool.name).toBe("ask_human");
    expect(tool.description).toBe("Ask the human operator a question when blocked.");
    expect(tool.annotations).toMatchObject({ readOnly: true, openWorld: true });
  });
});

describe("ask_user options as plain strings", () => {
  it("takes options: string[] (as other toolsets send) beside the object form", async () => {
    const handler = createRecordingHandler(["prod", "Staging"]);
    const tool = createAskUserTool({ handler });
    const result = await tool.run({ question: "Where?", options: [" Staging ", "Prod"] });
    expect(handler.questions[0]).toEqual({
      type: "ask_user",
      question: "Where?",
      options: [{ label: "Staging" }, { label: "Prod" }],
      allow_multiple: false,
    });
    expect(result).toMatchObject({ data: { answer: "Prod", selected_options: ["Prod"] } });
    expect(tool.renderResult(result)).toBe("The user chose: Prod");
    await tool.run({
      question: "Where?",
      options: ["Staging", { label: "Prod", description: "live" }],
    });
    expect(handler.questions[1]).toMatchObject({
      options: [{ label: "Staging" }, { label: "Prod", description: "live" }],
    });
  });

  it("advertises options as { label, description? } only, and still takes plain strings", async () => {
    const handler = createRecordingHandler();
    const tool = createAskUserTool({ handler });
    // No union: clients that rebuild zod from the JSON Schema (@langchain/mcp-adapters) keep it.
    expect((toJsonSchema(tool).properties as Record<string, unknown>).options).toMatchObject({
      type: "array",
      items: {
        type: "object",
        properties: { label: { type: "string" }, description: { type: "string" } },
        required: ["label"],
        additionalProperties: false,
      },
    });
    expect(JSON.stringify(toJsonSchema(tool))).not.toMatch(/anyOf|oneOf/);
    await tool.run({
      question: "Where?",
      options: ["Staging", { label: "Prod", description: "live" }],
    });
    expect(handler.questions[0]).toMatchObject({
      options: [{ label: "Staging" }, { label: "Prod", description: "live" }],
    });
  });

  it("checks string options like labels, naming options[i].label (the advertised object form)", async () => {
    const handler = createRecordingHandler();
    const result = await createAskUserTool({ handler }).run({
      question: "?",
      options: ["Yes", " ", { label: "yes" }],
    });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error.message).toContain("options[1].label is empty");
    expect(result.error.message).toContain('options[2].label "yes" repeats options[0].label');
    expect(handler.questions).toEqual([]);
    const wrong = await createAskUserTool({ handler }).run({ question: "?", options: [3] });
    expect(!wrong.success && wrong.error.code).toBe("INVALID_INPUT");
  });
});
