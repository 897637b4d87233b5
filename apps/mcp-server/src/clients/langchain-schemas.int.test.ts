import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { registerTools } from "@agentool/adapters/mcp";
import { defineTool, type JsonSchema, ok } from "@agentool/contract";
import { sampleFromSchema } from "@agentool/contract/testing";
import { DynamicStructuredTool } from "@langchain/core/tools";
import { loadMcpTools } from "@langchain/mcp-adapters";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  initializeRepository,
  requireBuiltCli,
  type StdioSession,
  startStdioSession,
  temporaryDirectory,
} from "../test-support/spawn-server.js";

// Our schemas through a real client's conversion: the built `agentool-mcp` over stdio with every
// family that starts here, its tools loaded by @langchain/mcp-adapters' `loadMcpTools` (what
// MultiServerMCPClient runs; the SDK client is ours so it can declare elicitation and get
// ask_user and confirm too). LangChain simplifies each JSON Schema (flattening unions) and
// validates the model's input against it on the client side; clients like Mastra rebuild zod
// from it. So for every tool: LangChain's schema, rebuilt as zod (`z.fromJSONSchema`) and
// converted back (`z.toJSONSchema`), agrees with the schema the server advertised on the type of
// every property, and the documented examples pass LangChain's own validation and the zod.

type ConvertedTool = Awaited<ReturnType<typeof loadMcpTools>>[number];

let project: ReturnType<typeof temporaryDirectory>;
let session: StdioSession;
let advertised: Tool[];
let converted: ConvertedTool[];

const FAMILIES = "core,fs,git,web,knowledge,memory,skills,interact,preview";

beforeAll(async () => {
  requireBuiltCli();
  project = temporaryDirectory({
    "README.md": "# Notes\n\n## Usage\n\nRun it.\n",
    "src/index.ts": "export const answer = 42;\n",
    "skills/release/SKILL.md":
      "---\nname: release\ndescription: How to cut a release of this project.\n---\n\nTag, then publish.\n",
  });
  initializeRepository(project.path);
  const memory = join(project.path, ".memory");
  mkdirSync(memory);
  writeFileSync(join(memory, ".keep"), "");
  session = await startStdioSession(
    [
      ...["--root", project.path, "--mode", "read-write", "--families", FAMILIES],
      ...["--allow-command", "echo", "--searxng", "http://127.0.0.1:9"],
      ...["--memory-dir", memory, "--skills-dir", "skills"],
    ],
    { capabilities: { elicitation: {} } },
  );
  advertised = (await session.client.listTools()).tools;
  converted = await loadMcpTools("agentool", session.client, { throwOnLoadError: true });
}, 60_000);

afterAll(async () => {
  await session?.close();
  project?.cleanup();
});

/** What a JSON Schema says about types, property by property: type, items, properties, required, enum. */
function typeSignature(schema: unknown): unknown {
  if (typeof schema !== "object" || schema === null) return schema;
  const node = schema as JsonSchema;
  const signature: Record<string, unknown> = {
    type: node.type ?? (node.anyOf ? "anyOf" : node.oneOf ? "oneOf" : "any"),
  };
  if (node.anyOf !== undefined) signature.anyOf = (node.anyOf as unknown[]).map(typeSignature);
  if (node.oneOf !== undefined) signature.oneOf = (node.oneOf as unknown[]).map(typeSignature);
  if (node.items !== undefined) signature.items = typeSignature(node.items);
  if (typeof node.properties === "object" && node.properties !== null) {
    signature.properties = Object.fromEntries(
      Object.entries(node.properties).map(([key, value]) => [key, typeSignature(value)]),
    );
  }
  if (Array.isArray(node.required)) signature.required = [...node.required].sort();
  if (Array.isArray(node.enum)) signature.enum = node.enum;
  return signature;
}

/** The JSON Schema LangChain holds for a loaded tool (a zod schema is converted back first). */
function langChainJsonSchema(tool: ConvertedTool): JsonSchema {
  const schema = tool.schema as unknown;
  if (schema instanceof z.ZodType) return z.toJSONSchema(schema, { io: "input" }) as JsonSchema;
  return schema as JsonSchema;
}

/** LangChain's schema rebuilt as zod, as clients that validate with zod do, and converted back. */
function roundTrip(tool: ConvertedTool): { zod: z.ZodType; back: JsonSchema } {
  const rebuilt = z.fromJSONSchema(
    langChainJsonSchema(tool) as Parameters<typeof z.fromJSONSchema>[0],
  );
  return {
    zod: rebuilt,
    back: z.toJSONSchema(rebuilt, { io: "input", target: "draft-7" }) as JsonSchema,
  };
}

/** Strings tried, in order, for a string property with a `pattern`. */
const PATTERN_CANDIDATES = ["sample", "0123456789ab", "a", "sample-1", "2026-01-01"];

/** An input with every property of the schema filled (optional ones too), one item per array. */
function fullSample(schema: JsonSchema): unknown {
  if (schema.type === "string" && typeof schema.pattern === "string") {
    const pattern = new RegExp(schema.pattern);
    const found = PATTERN_CANDIDATES.find((candidate) => pattern.test(candidate));
    if (found === undefined)
      throw new Error(`add a string matching ${schema.pattern} to PATTERN_CANDIDATES`);
    return found;
  }
  if (schema.type === "object" && typeof schema.properties === "object" && schema.properties) {
    return Object.fromEntries(
      Object.entries(schema.properties).map(([key, value]) => [
        key,
        fullSample(value as JsonSchema),
      ]),
    );
  }
  if (schema.type === "array" && typeof schema.items === "object" && schema.items !== null) {
    const count = Math.max(1, typeof schema.minItems === "number" ? schema.minItems : 1);
    return Array.from({ length: count }, () => fullSample(schema.items as JsonSchema));
  }
  return sampleFromSchema(schema);
}

/** The inputs the tools' descriptions and READMEs show, as a model would send them. */
const DOCUMENTED_EXAMPLES: Record<string, unknown[]> = {
  think: [{ thought: "The failing test reads the old config; check the loader first." }],
  update_plan: [
    {
      plan: [
        { step: "Read the config loader", status: "in_progress" },
        { step: "Fix it", status: "pending" },
      ],
    },
  ],
  read_file: [{ path: "src/index.ts" }, { path: "README.md", offset: -100 }],
  list_directory: [{ path: "." }, { path: "src", depth: 2 }],
  grep_search: [{ pattern: "answer" }, { pattern: "answer", path: "src", glob: "*.ts" }],
  glob_search: [{ pattern: "**/*.ts" }],
  edit_file: [{ path: "src/index.ts", old_text: "42", new_text: "43" }],
  write_file: [{ path: "notes/todo.md", content: "# Todo\n" }],
  run_command: [{ command: ["git", "status", "--short"] }, { command: ["echo", "hi"], cwd: "src" }],
  web_fetch: [{ url: "https://example.com/docs" }],
  ask_user: [
    { question: "Where should I deploy?" },
    {
      question: "Where should I deploy?",
      options: [{ label: "Staging" }, { label: "Production", description: "Live traffic" }],
      allow_multiple: false,
    },
  ],
  confirm: [{ message: "Delete the build folder?" }],
  notify: [{ message: "The build finished.", level: "info" }],
  git_commit: [{ message: "Fix the config loader" }],
  memory_write: [{ key: "deploy-target", content: "Staging first, then production." }],
  use_skill: [{ name: "release" }],
};

/** Runs LangChain's own input validation (the one behind "did not match expected schema"), not the tool. */
async function langChainAccepts(tool: ConvertedTool, input: unknown): Promise<string> {
  const probe = new DynamicStructuredTool({
    name: tool.name,
    description: tool.description,
    schema: tool.schema as Record<string, unknown>,
    func: async () => "accepted",
  });
  try {
    return String(await probe.invoke(input as Record<string, unknown>));
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

describe("@langchain/mcp-adapters 1.1.4 keeps every advertised schema", { timeout: 60_000 }, () => {
  it("loads every tool of every family", () => {
    expect(converted.map((tool) => tool.name)).toEqual(advertised.map((tool) => tool.name));
    const names = advertised.map((tool) => tool.name);
    for (const name of [
      "run_command",
      "ask_user",
      "git_status",
      "memory_write",
      "use_skill",
      "preview",
    ]) {
      expect(names).toContain(name);
    }
  });

  it("agrees with the server on the type of every property, after a zod round trip", () => {
    for (const tool of advertised) {
      const loaded = converted.find((candidate) => candidate.name === tool.name) as ConvertedTool;
      expect(typeSignature(langChainJsonSchema(loaded)), tool.name).toEqual(
        typeSignature(tool.inputSchema),
      );
      expect(typeSignature(roundTrip(loaded).back), tool.name).toEqual(
        typeSignature(tool.inputSchema),
      );
    }
  });

  it("run_command.command stays an array of strings; ask_user.options keeps { label, description? }", () => {
    const byName = (name: string) =>
      roundTrip(converted.find((tool) => tool.name === name) as ConvertedTool).back;
    const command = (byName("run_command").properties as Record<string, JsonSchema>).command;
    expect(command).toMatchObject({ type: "array", items: { type: "string" } });
    const options = (byName("ask_user").properties as Record<string, JsonSchema>).options;
    expect(options).toMatchObject({
      type: "array",
      items: {
        type: "object",
        properties: { label: { type: "string" }, description: { type: "string" } },
        required: ["label"],
      },
    });
  });

  it("accepts the documented examples and a sample filling every property of every tool", async () => {
    const served = new Set(advertised.map((tool) => tool.name));
    expect(Object.keys(DOCUMENTED_EXAMPLES).filter((name) => !served.has(name))).toEqual([]);
    for (const tool of advertised) {
      const loaded = converted.find((candidate) => candidate.name === tool.name) as ConvertedTool;
      const { zod } = roundTrip(loaded);
      const inputs = [
        sampleFromSchema(tool.inputSchema as JsonSchema),
        fullSample(tool.inputSchema as JsonSchema),
        ...(DOCUMENTED_EXAMPLES[tool.name] ?? []),
      ];
      for (const input of inputs) {
        const label = `${tool.name} ${JSON.stringify(input)}`;
        expect(await langChainAccepts(loaded, input), label).toBe("accepted");
        expect(zod.safeParse(input).error?.message, label).toBeUndefined();
      }
    }
  });
});

describe("the check itself", () => {
  it("catches the union LangChain flattens (the old run_command.command)", async () => {
    const union = defineTool({
      name: "union_probe",
      description: "Runs a program: an argv array, or one command string.",
      input: z.object({
        command: z.union([z.array(z.string()), z.string()]).describe("The command."),
      }),
      execute: () => ok({ done: true }),
    });
    const server = new McpServer({ name: "union", version: "1.0.0" });
    registerTools(server, [union]);
    const client = new Client({ name: "probe", version: "1.0.0" });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    await client.connect(clientTransport);
    try {
      const [listed] = (await client.listTools()).tools;
      const [loaded] = await loadMcpTools("probe", client, { throwOnLoadError: true });
      expect(typeSignature(roundTrip(loaded as ConvertedTool).back)).not.toEqual(
        typeSignature(listed?.inputSchema),
      );
    } finally {
      await client.close();
      await server.close();
    }
  });
});
