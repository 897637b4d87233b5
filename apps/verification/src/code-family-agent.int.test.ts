// The code family through LangChain as a host runs it: `createCodeTools` wrapped by
// `toLangChainTools` in a real `createAgent` (langchain) driven by a scripted `fakeModel()`, on
// code nobody here wrote — zod 4.6.7's own TypeScript sources, installed from npm and copied to
// a temporary root. The assertions read the tool messages the model got back.
import { cpSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { toLangChainTools } from "@agentool/adapters/langchain";
import { CODE_READ_TOOL_NAMES, createCodeTools } from "@agentool/tools-code";
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { createAgent } from "langchain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
const zodFolder = dirname(require.resolve("zod/package.json"));

let root: string;

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "agentool-code-agent-")));
  cpSync(join(zodFolder, "src"), root, { recursive: true });
});

afterAll(() => {
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
});

function toolMessages(messages: readonly unknown[]): ToolMessage[] {
  return messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message));
}

describe("the code family in a LangChain agent (createAgent + fakeModel) on zod's sources", () => {
  it("pins the zod the figures below were read from", () => {
    expect((require("zod/package.json") as { version: string }).version).toBe("4.6.7");
  });

  it("find_symbol, then find_references and ast_search in one turn; the model reads each result", async () => {
    const model = fakeModel()
      .respondWithTools([{ id: "symbol", name: "find_symbol", args: { name: "safeParse" } }])
      .respondWithTools([
        { id: "references", name: "find_references", args: { name: "flattenError" } },
        {
          id: "search",
          name: "ast_search",
          args: { pattern: "new Error($$$ARGS)", language: "typescript" },
        },
      ])
      .respond(new AIMessage("safeParse is defined five times; flattenError is used in 5 files."));
    const tools = toLangChainTools(createCodeTools({ root, mode: "read-only" }));
    expect(tools.map((tool) => tool.name)).toEqual([...CODE_READ_TOOL_NAMES]);
    const agent = createAgent({ model, tools });
    const state = await agent.invoke({
      messages: [new HumanMessage("Where is safeParse defined, and who uses flattenError?")],
    });
    const [symbol, references, search] = toolMessages(state.messages);
    expect([symbol, references, search].map((message) => message?.tool_call_id)).toEqual([
      "symbol",
      "references",
      "search",
    ]);
    for (const message of [symbol, references, search]) {
      expect(message?.status, String(message?.content)).toBe("success");
    }

    // Definitions in zod 3's class, zod 4 classic, mini and core: each at file:start-end.
    const symbolText = String(symbol?.content);
    expect(symbolText).toMatch(/^5 definitions of safeParse:/);
    expect(symbolText).toContain("v4/core/parse.ts:80  export const safeParse: $SafeParse");
    expect(symbolText).toMatch(/v3\/types\.ts:229-245 {2}method safeParse\(.* {2}\(in ZodType\)$/m);
    expect(symbolText).toContain("(in ZodMiniType)");

    // Syntactic references bound through imports (zod/v4 from the tests is a package: left
    // out), grouped by declaration and file, each with its enclosing symbol.
    const referencesText = String(references?.content);
    expect(referencesText).toMatch(/^6 references to flattenError in 4 files/);
    expect(referencesText).toContain("Syntactic, not type-resolved");
    expect(referencesText).toContain("## 1. v4/core/errors.ts:322 declared here — 6 in 4 files");
    expect(referencesText).toContain("v4/classic/errors.ts\n  59:65 in initializer │");
    expect(referencesText).toMatch(/\[declaration\] │ export function flattenError<T, U>\(/);

    // The count the TypeScript compiler's AST gives on the same files (tools-code's real-code test).
    const searchText = String(search?.content);
    expect(searchText).toMatch(
      /^Matches 1–\d+ of 115 \(in 35 files\) for "new Error\(\$\$\$ARGS\)"/,
    );
    expect(searchText).toContain("$$$ARGS = ");
    expect(searchText).toMatch(/call ast_search again with pattern="new Error\(\$\$\$ARGS\)"/);

    // The model's second call saw the first result; the run finished with the model's answer.
    expect(model.callCount).toBe(3);
    const secondCall = toolMessages(model.calls[1]?.messages ?? []);
    expect(secondCall.map((message) => message.tool_call_id)).toEqual(["symbol"]);
    expect(state.messages.at(-1)?.content).toBe(
      "safeParse is defined five times; flattenError is used in 5 files.",
    );
  }, 60_000);

  it("an unknown language and a path outside the root come back as tool errors the model can read", async () => {
    const model = fakeModel()
      .respondWithTools([
        { id: "language", name: "ast_search", args: { pattern: "$A", language: "cobol" } },
        { id: "outside", name: "code_outline", args: { path: "../../etc/passwd" } },
      ])
      .respond(new AIMessage("Both were refused."));
    const agent = createAgent({
      model,
      tools: toLangChainTools(createCodeTools({ root, mode: "read-only" })),
    });
    const state = await agent.invoke({ messages: [new HumanMessage("try")] });
    const [language, outside] = toolMessages(state.messages);
    expect(language?.status).toBe("error");
    expect(String(language?.content)).toMatch(/^Error \[(UNSUPPORTED|INVALID_INPUT)\]: /);
    expect(outside?.status).toBe("error");
    expect(String(outside?.content)).toMatch(
      /^Error \[(INVALID_PATH|PERMISSION_DENIED|BLOCKED)\]: /,
    );
  }, 60_000);
});
