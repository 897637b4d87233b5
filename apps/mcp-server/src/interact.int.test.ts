import {
  type CallToolResult,
  type ElicitRequest,
  ElicitRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { beforeAll, describe, expect, it } from "vitest";
import { requireBuiltCli, startStdioSession } from "./test-support/spawn-server.js";
import { resultText as text } from "./test-support/tool-results.js";

beforeAll(requireBuiltCli);

type RequestedSchema = {
  properties: Record<string, { type?: string; enum?: string[]; items?: { enum?: string[] } }>;
};

/**
 * Fills a form as a person would: ticks yes, picks the option with `choice` in it when the form
 * offers options (leaving the free-text field empty), or types `text` into a form without options.
 */
function answer(request: ElicitRequest, reply: { text: string; choice: string }) {
  const schema = (request.params as { requestedSchema: RequestedSchema }).requestedSchema;
  const fields = Object.entries(schema.properties);
  const offersOptions = fields.some(([, field]) => (field.enum ?? field.items?.enum) !== undefined);
  const content: Record<string, unknown> = {};
  for (const [name, field] of fields) {
    const options = field.enum ?? field.items?.enum;
    if (field.type === "boolean") content[name] = true;
    else if (field.type === "array") {
      content[name] = (options ?? []).filter((option) => option.includes(reply.choice));
    } else if (options !== undefined) {
      content[name] = options.find((option) => option.includes(reply.choice)) ?? options[0];
    } else if (!offersOptions) content[name] = reply.text;
  }
  return { action: "accept" as const, content };
}

describe("interact over MCP elicitation", () => {
  it("serves ask_user and confirm to a client that supports elicitation and answers through it", async () => {
    const requests: ElicitRequest[] = [];
    const session = await startStdioSession(["--families", "interact"], {
      capabilities: { elicitation: {} },
      setup: (client) => {
        client.setRequestHandler(ElicitRequestSchema, (request) => {
          requests.push(request);
          return answer(request, { text: "Fix the port first", choice: "port" });
        });
      },
    });
    try {
      const names = (await session.client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(["ask_user", "confirm", "notify"]);

      const free = await session.client.callTool({
        name: "ask_user",
        arguments: { question: "What should I fix first?" },
      });
      expect((free as CallToolResult).isError ?? false).toBe(false);
      expect(text(free)).toContain("Fix the port first");
      expect(JSON.stringify(requests[0]?.params)).toContain("What should I fix first?");

      const choice = await session.client.callTool({
        name: "ask_user",
        arguments: {
          question: "Which item?",
          options: ["The port mismatch", "The JSON content type"],
        },
      });
      expect(text(choice)).toContain("The port mismatch");

      const confirmed = await session.client.callTool({
        name: "confirm",
        arguments: { message: "Commit the fix?", default: false },
      });
      expect((confirmed as CallToolResult).isError ?? false).toBe(false);
      expect(text(confirmed)).toMatch(/confirmed/i);
      expect(requests).toHaveLength(3);
    } finally {
      await session.close();
    }
  });

  it("a declined question is no answer, not an error", async () => {
    const session = await startStdioSession(["--families", "interact"], {
      capabilities: { elicitation: {} },
      setup: (client) => {
        client.setRequestHandler(ElicitRequestSchema, () => ({ action: "decline" as const }));
      },
    });
    try {
      const confirmed = await session.client.callTool({
        name: "confirm",
        arguments: { message: "Delete the branch?", default: false },
      });
      expect((confirmed as CallToolResult).isError ?? false).toBe(false);
      expect(text(confirmed)).not.toMatch(/user confirmed/i);
    } finally {
      await session.close();
    }
  });

  it("leaves ask_user and confirm out for a client without elicitation (notify stays)", async () => {
    const session = await startStdioSession(["--families", "core,interact"]);
    try {
      const { tools } = await session.client.listTools();
      const names = tools.map((tool) => tool.name);
      expect(names).toEqual(["think", "update_plan", "notify"]);
      await session.waitForStderr("ask_user and confirm left out");
      for (const tool of tools) {
        expect(tool.description ?? "").not.toContain("ask_user");
        expect(tool.description ?? "").not.toMatch(/`confirm`/);
      }
    } finally {
      await session.close();
    }
  });
});
