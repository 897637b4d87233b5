import { createHash } from "node:crypto";
import { GIT_NEUTRAL_CONFIG, GIT_NO_HOOKS_PATH } from "@agentool/contract/policy";
import { expect } from "vitest";
import type { EntryServer } from "./entry-server.js";

/** What an expectation may look at besides the page's value. */
export interface ExpectationContext {
  /** The server the page loaded from (its request log). */
  server: EntryServer;
  /** Runs SQL on the PostgreSQL (PGlite + pgvector) behind `POST /sql`. */
  query(text: string): Promise<{ rows: Array<Record<string, unknown>> }>;
}

/** Checks one entry's value (the script's return, as the page cloned it). */
export type EntryExpectation = (value: unknown, context: ExpectationContext) => Promise<void>;

type Calls = Record<string, { tool: string; result: unknown; text: string }>;

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** A call's `data` (an empty object when the call failed or is missing). */
function dataOf(call: { result: unknown } | undefined): Record<string, unknown> {
  const result = call?.result as { data?: Record<string, unknown> } | undefined;
  return result?.data ?? {};
}

/** Asserts a call succeeded, its data matches `data`, and its rendered text holds each of `texts`. */
function expectSuccess(
  call: { result: unknown; text: string } | undefined,
  data: Record<string, unknown>,
  texts: readonly string[] = [],
): void {
  expect(call?.result).toMatchObject({ success: true, data });
  for (const text of texts) expect(call?.text).toContain(text);
}

const contract: EntryExpectation = async (value) => {
  const { sum, refused, schema } = value as Calls & { schema: unknown };
  expect(sum?.result).toEqual({ success: true, data: { sum: 42 } });
  expect(refused?.result).toMatchObject({
    success: false,
    error: { code: "INVALID_INPUT", message: expect.stringContaining("a: expected number") },
  });
  expect(schema).toEqual({
    type: "object",
    properties: { a: { type: "number" }, b: { type: "number" } },
    required: ["a", "b"],
    additionalProperties: false,
  });
};

const contractTesting: EntryExpectation = async (value) => {
  expect(value).toEqual({
    report: { violations: [], checkedTools: ["echo_text"] },
    strictProblems: [],
  });
};

const contractPolicy: EntryExpectation = async (value) => {
  expect(value).toEqual({
    secret: {
      "config/.env.production": true,
      ".env.example": false,
      "src/index.ts": false,
      "keys/server.pem": true,
    },
    hooksPath: GIT_NO_HOOKS_PATH,
    hooksPathWhenAllowed: undefined,
    environment: {
      count: String(GIT_NEUTRAL_CONFIG.length + 1),
      firstKey: GIT_NEUTRAL_CONFIG[0]?.[0],
      pairs: GIT_NEUTRAL_CONFIG.length + 1,
    },
  });
};

const toolsCore: EntryExpectation = async (value) => {
  const { think, plan } = value as Calls;
  expectSuccess(think, { recorded: true, characters: 59 }, ["Thought recorded"]);
  expectSuccess(plan, { completed_steps: 1, total_steps: 3 }, [
    "[x] Read the notes",
    "[~] Fix the typo",
    "[ ] Search for TODOs",
  ]);
};

const toolsFs: EntryExpectation = async (value) => {
  const { read, write, edit, grep, reread } = value as Calls;
  const original = "# Pump\n\nCheck the presure valve weekly.\nTODO: order seals\n";
  const edited = original.replace("presure", "pressure");
  // The sha is computed in the page (Web Crypto); it must be the file's real SHA-256.
  expectSuccess(read, { path: "notes/pump.md", content: original, sha: sha256(original) }, [
    "3\tCheck the presure valve weekly.",
  ]);
  expectSuccess(write, { path: "notes/seals.md", created: true, bytes_written: 33 });
  expectSuccess(edit, { replacements: 1, lines: [3], previous_sha: sha256(original) }, [
    "+Check the pressure valve weekly.",
  ]);
  expectSuccess(grep, { match_count: 2, total_files: 2 }, [
    "notes/pump.md\n4: TODO: order seals",
    "notes/seals.md\n3: TODO: compare suppliers",
  ]);
  expectSuccess(reread, { content: edited, sha: sha256(edited) });
};

const toolsWeb: EntryExpectation = async (value, { server }) => {
  const { html, json, feed } = value as Calls;
  const page = `${server.origin}/fixtures/article.html`;
  expectSuccess(html, { url: page, final_url: page, kind: "html", title: "Pump maintenance" }, [
    "# Pump maintenance",
    `Check the **pressure valve** every _week_. See [the valve manual](${server.origin}/manual/valves).`,
    "## Steps\n\n- Close the inlet\n- Drain the tank",
    "| Part  | Interval |\n| ----- | -------- |\n| Valve | 7 days   |\n| Seal  | 90 days  |",
    "```sh\npump --drain\n```",
  ]);
  expect(dataOf(html).content).not.toMatch(/<|color: red|scripted/);
  expectSuccess(json, { kind: "json", content_type: "application/json" }, [
    '"pressure_bar": 4.5',
    '"parts": [\n    "valve",\n    "seal"\n  ]',
  ]);
  expectSuccess(feed, { kind: "feed", title: "Plant news", entries_total: 2 }, [
    "1. Valve recall\n   https://plant.example/news/recall\n   2025-01-06T09:00:00.000Z",
    "Seals now last 90 days.",
  ]);
  // The page really fetched each document from the server (the page's own fetch, no cache).
  for (const path of ["/fixtures/article.html", "/fixtures/data.json", "/fixtures/feed.xml"]) {
    expect(server.requests).toContain(path);
  }
};

const toolsInteract: EntryExpectation = async (value) => {
  const { calls, asked, notified } = value as {
    calls: Calls;
    asked: unknown[];
    notified: string[];
  };
  expectSuccess(calls.ask, { answered: true, answer: "Blue", selected_options: ["Blue"] }, [
    "The user chose: Blue",
  ]);
  expectSuccess(calls.confirm, { confirmed: true, defaulted: false });
  expectSuccess(calls.notify, { sent: true, level: "info" });
  expect(asked).toEqual([
    {
      type: "ask_user",
      question: "Which colour should the button be?",
      options: [{ label: "Blue" }, { label: "Green", description: "Matches the logo" }],
      allow_multiple: false,
    },
    { type: "confirm", message: "Delete the draft?", default: false },
  ]);
  expect(notified).toEqual(["info: Build finished"]);
};

const toolsGui: EntryExpectation = async (value) => {
  const { calls, clicks, typed } = value as {
    calls: Calls;
    clicks: Array<[string, number, number, number]>;
    typed: string[];
  };
  expectSuccess(
    calls.screenshot,
    { screenshot_width: 1024, screenshot_height: 640, scale: 0.8, image_width: 1024 },
    ["Screen 1280×800, screenshot 1024×640 (scale 0.8)."],
  );
  expect(String(dataOf(calls.screenshot).image_base64)).toMatch(/^iVBORw0KGgo/); // a PNG
  // The square (display 1000,500 40×40) as screenshot pixels, and its centre.
  expectSuccess(
    calls.window,
    {
      window_title: "Canvas",
      total: 1,
      elements: [
        {
          role: "push button",
          name: "Red square",
          box: [800, 400, 832, 432],
          center: [815, 415],
        },
      ],
    },
    ['- push button "Red square" at (815, 415) box [800, 400, 832, 432]'],
  );
  expectSuccess(calls.click, { summary: "left click at (815, 415)." });
  const [button, count, x, y] = clicks[0] ?? [];
  expect([button, count]).toEqual(["left", 1]);
  expect(x).toBeGreaterThanOrEqual(1000);
  expect(x).toBeLessThan(1040);
  expect(y).toBeGreaterThanOrEqual(500);
  expect(y).toBeLessThan(540);
  expect(typed).toEqual(["hello"]);
  expectSuccess(calls.pointer, { pointer_x: 815, pointer_y: 415 });
};

const toolsPreview: EntryExpectation = async (value) => {
  const calls = value as Calls;
  expectSuccess(
    calls.open,
    {
      title: "Counter",
      session: { backend: "iframe", state: "open" },
      console: [{ level: "log", text: "counter ready", count: 1 }],
    },
    ["Opened counter.html"],
  );
  expectSuccess(calls.act, { requested: 2, completed: 2 });
  expectSuccess(calls.read, { answers: [{ css: "#count", values: ["2"] }] });
  expectSuccess(calls.evaluate, { value_json: "20", value_type: "number" });
  expectSuccess(calls.close, { closed: true, session: { state: "closed" } });
};

/** The pump manual ranks first for the valve question, with its heading trail and source. */
function expectPumpManualFirst(call: { result: unknown; text: string } | undefined): void {
  expectSuccess(call, { total: 3, searched: { documents: 3, chunks: 3 }, warnings: [] }, [
    "Inspect the pressure valve every week",
  ]);
  expect((dataOf(call).hits as unknown[] | undefined)?.[0]).toMatchObject({
    file: "manuals/pump.md",
    heading_trail: ["Pump manual", "Pressure valve"],
    source: "https://plant.example/manuals/pump",
    tags: ["manual"],
  });
}

const toolsKnowledge: EntryExpectation = async (value) => {
  const { ingested, calls } = value as { ingested: number; calls: Calls };
  expect(ingested).toBe(3);
  expectPumpManualFirst(calls.search);
  expectSuccess(calls.memoryWrite, { key: "favourite-colour", created: true });
  expectSuccess(calls.memorySearch, {
    total: 1,
    results: [{ key: "favourite-colour", content: "The user prefers blue buttons." }],
  });
};

const toolsKnowledgePgvector: EntryExpectation = async (value, { query }) => {
  const { ingested, search } = value as { ingested: number; search: Calls[string] };
  expect(ingested).toBe(3);
  expectPumpManualFirst(search);
  // The rows are in PostgreSQL, each with its vector: the page's store wrote them there.
  const { rows } = await query(
    "SELECT document_key, vector_dims(embedding) AS dimensions FROM knowledge_chunks ORDER BY document_key",
  );
  expect(rows).toEqual([
    { document_key: "manuals/boiler.md", dimensions: 64 },
    { document_key: "manuals/pump.md", dimensions: 64 },
    { document_key: "news/canteen.md", dimensions: 64 },
  ]);
};

const toolsKnowledgeSearch: EntryExpectation = async (value) => {
  const { ingested, search } = value as { ingested: number; search: Calls[string] };
  expect(ingested).toBe(3);
  expectPumpManualFirst(search);
};

const toolsKnowledgeMemory: EntryExpectation = async (value) => {
  const { calls } = value as { calls: Calls };
  expectSuccess(calls.memoryWrite, { key: "favourite-colour", created: true });
  expectSuccess(calls.memorySearch, {
    total: 1,
    results: [{ key: "favourite-colour", content: "The user prefers blue buttons." }],
  });
};

const toolsKnowledgeSkills: EntryExpectation = async (value) => {
  const { calls } = value as { calls: Calls };
  expectSuccess(
    calls.use,
    {
      name: "brew-tea",
      body_start_line: 5,
      files: [{ path: "references/steps.md" }],
      files_total: 1,
    },
    ["1. Boil water.", "references/steps.md"],
  );
  expectSuccess(calls.read, {}, ["Warm the pot.", "Steep four minutes."]);
};

const THINK_ANSWER = "Thought recorded. Continue with your next step.";
const PLAN_ANSWER = 'Plan updated (0/1 done): working on "Answer the user".\n[~] Answer the user';

const adaptersMcp: EntryExpectation = async (value) => {
  expect(value).toEqual({
    listed: ["think", "update_plan"],
    called: { content: [{ type: "text", text: THINK_ANSWER }] },
  });
};

const adaptersOpenAi: EntryExpectation = async (value) => {
  expect(value).toMatchObject({
    offered: ["think", "update_plan"],
    chat: {
      message: { role: "tool", tool_call_id: "call_1", content: THINK_ANSWER },
      result: { success: true, data: { recorded: true } },
    },
    responses: {
      item: { type: "function_call_output", call_id: "call_2", output: PLAN_ANSWER },
      result: { success: true, data: { total_steps: 1 } },
    },
  });
};

const adaptersAnthropic: EntryExpectation = async (value) => {
  expect(value).toMatchObject({
    offered: ["think", "update_plan"],
    answers: [
      {
        block: { type: "tool_result", tool_use_id: "toolu_1", content: THINK_ANSWER },
        result: { success: true },
      },
    ],
  });
};

const adaptersGemini: EntryExpectation = async (value) => {
  expect(value).toMatchObject({
    offered: ["think", "update_plan"],
    answers: [
      {
        part: {
          functionResponse: {
            id: "call_1",
            name: "update_plan",
            response: { output: PLAN_ANSWER },
          },
        },
        result: { success: true },
      },
    ],
  });
};

/** Each browser script's expectation, by the script's name (browser-entries/<name>.ts). */
export const ENTRY_EXPECTATIONS: Readonly<Record<string, EntryExpectation>> = {
  contract,
  "contract-testing": contractTesting,
  "contract-policy": contractPolicy,
  "tools-core": toolsCore,
  "tools-fs": toolsFs,
  "tools-web": toolsWeb,
  "tools-interact": toolsInteract,
  "tools-gui": toolsGui,
  "tools-preview": toolsPreview,
  "tools-knowledge": toolsKnowledge,
  "tools-knowledge-pgvector": toolsKnowledgePgvector,
  "tools-knowledge-search": toolsKnowledgeSearch,
  "tools-knowledge-memory": toolsKnowledgeMemory,
  "tools-knowledge-skills": toolsKnowledgeSkills,
  "adapters-mcp": adaptersMcp,
  "adapters-openai": adaptersOpenAi,
  "adapters-anthropic": adaptersAnthropic,
  "adapters-gemini": adaptersGemini,
};
