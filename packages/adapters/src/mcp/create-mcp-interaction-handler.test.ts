import type { AnyTool } from "@agentool/contract";
import { createInteractTools, type InteractionHandler } from "@agentool/tools-interact";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
  type JSONRPCMessage,
  type LoggingMessageNotification,
  LoggingMessageNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { clientSupportsElicitation } from "./client-supports-elicitation.js";
import {
  createMcpInteractionHandler,
  MCP_NOTIFICATION_LOGGER,
} from "./create-mcp-interaction-handler.js";
import { registerTools } from "./register-tools.js";

const open: (() => Promise<void>)[] = [];

afterEach(async () => {
  vi.useRealTimers();
  for (const close of open.splice(0)) await close();
});

type Answer = (request: ElicitRequest, signal: AbortSignal) => ElicitResult | Promise<ElicitResult>;

interface Setup {
  server: McpServer;
  client: Client;
  /** Every elicitation request the client received. */
  asked: ElicitRequest["params"][];
  /** Every logging message the client received. */
  logged: LoggingMessageNotification["params"][];
  /** Every message the server sent, with the transport options it gave. */
  sent: { message: JSONRPCMessage; relatedRequestId: unknown }[];
}

async function setUp(
  answer: Answer | undefined,
  options: { logging?: boolean; timeoutMs?: number; structuredContent?: "always" } = {},
): Promise<Setup> {
  const server = new McpServer(
    { name: "agentool-test", version: "1.0.0" },
    { capabilities: options.logging === false ? {} : { logging: {} } },
  );
  // The handler's shape is the family's InteractionHandler, without adapters importing it.
  const handler: InteractionHandler = createMcpInteractionHandler(server);
  const tools: AnyTool[] = createInteractTools({
    handler,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });
  registerTools(
    server,
    tools,
    options.structuredContent === undefined ? {} : { structuredContent: options.structuredContent },
  );
  const client = new Client(
    { name: "test-client", version: "1.0.0" },
    { capabilities: answer === undefined ? {} : { elicitation: {} } },
  );
  const asked: ElicitRequest["params"][] = [];
  const logged: LoggingMessageNotification["params"][] = [];
  if (answer !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, (request, extra) => {
      asked.push(request.params);
      return answer(request, extra.signal);
    });
  }
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    logged.push(notification.params);
  });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const sent: Setup["sent"] = [];
  const send = serverTransport.send.bind(serverTransport);
  serverTransport.send = (message, sendOptions) => {
    sent.push({ message, relatedRequestId: sendOptions?.relatedRequestId });
    return send(message, sendOptions);
  };
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  open.push(async () => {
    await client.close();
    await server.close();
  });
  return { server, client, asked, logged, sent };
}

async function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  options?: { signal?: AbortSignal },
): Promise<{ text: string; data: unknown; isError: boolean }> {
  const result = await client.callTool({ name, arguments: args }, undefined, {
    timeout: 600_000,
    ...options,
  });
  const content = result.content as { type: string; text?: string }[];
  return {
    text: content.map((block) => block.text ?? "").join(""),
    data: result.structuredContent,
    isError: result.isError === true,
  };
}

describe("createMcpInteractionHandler: ask_user over elicitation", () => {
  it("a free-text question is one required string field; accept returns the answer", async () => {
    const { client, asked } = await setUp(() => ({
      action: "accept",
      content: { answer: "  Staging, please  " },
    }));
    const result = await call(client, "ask_user", { question: "Where should I deploy?" });
    expect(result.text).toBe("The user answered: Staging, please");
    expect(asked).toEqual([
      {
        mode: "form",
        message: "Where should I deploy?",
        requestedSchema: {
          type: "object",
          properties: { answer: { type: "string", title: "Your answer" } },
          required: ["answer"],
        },
      },
    ]);
  });

  it("sends the elicitation as part of the tools/call it serves (relatedRequestId)", async () => {
    const { client, sent } = await setUp(() => ({ action: "accept", content: { answer: "Yes" } }));
    await call(client, "ask_user", { question: "Ready?" });
    const elicitation = sent.find(
      (entry) => "method" in entry.message && entry.message.method === "elicitation/create",
    );
    const response = sent.find(
      (entry) => "result" in entry.message && "content" in entry.message.result,
    );
    expect(elicitation?.relatedRequestId).toBeDefined();
    expect(response && "id" in response.message ? response.message.id : "none").toBe(
      elicitation?.relatedRequestId,
    );
  });

  it("a single choice offers the labels, what they mean, and a free-text field", async () => {
    const { client, asked } = await setUp(() => ({
      action: "accept",
      content: { choice: "Production" },
    }));
    const result = await call(client, "ask_user", {
      question: "Which environment?",
      options: ["Staging", { label: "Production", description: "Live traffic" }],
    });
    expect(result.text).toBe("The user chose: Production");
    expect(asked[0]?.mode).toBe("form");
    expect(
      asked[0] && "requestedSchema" in asked[0] ? asked[0].requestedSchema : undefined,
    ).toEqual({
      type: "object",
      properties: {
        choice: {
          type: "string",
          title: "Choose one",
          description: "Production: Live traffic",
          enum: ["Staging", "Production"],
        },
        other: {
          type: "string",
          title: "Or answer in your own words",
          description: "Optional.",
        },
      },
    });
  });

  it("a single choice may be answered in the person's own words, or both", async () => {
    const own = await setUp(() => ({ action: "accept", content: { other: "Neither" } }));
    const question = { question: "Which environment?", options: ["Staging", "Production"] };
    expect((await call(own.client, "ask_user", question)).text).toBe("The user answered: Neither");
    const both = await setUp(() => ({
      action: "accept",
      content: { choice: "Staging", other: "but only after 6 pm" },
    }));
    expect((await call(both.client, "ask_user", question)).text).toBe(
      "The user answered: Staging, but only after 6 pm",
    );
  });

  it("a multiple choice is an array of the labels; accept returns the chosen ones", async () => {
    const { client, asked } = await setUp(() => ({
      action: "accept",
      content: { choices: ["Lint", "Tests"] },
    }));
    const result = await call(client, "ask_user", {
      question: "What should CI run?",
      options: ["Lint", "Tests", "Bench"],
      allow_multiple: true,
    });
    expect(result.text).toBe("The user chose: Lint, Tests");
    const schema = asked[0] && "requestedSchema" in asked[0] ? asked[0].requestedSchema : undefined;
    expect(schema?.properties.choices).toEqual({
      type: "array",
      title: "Choose any that apply",
      items: { type: "string", enum: ["Lint", "Tests", "Bench"] },
    });
  });

  it("decline and cancel are no answer", async () => {
    for (const action of ["decline", "cancel"] as const) {
      const { client } = await setUp(() => ({ action }));
      const result = await call(client, "ask_user", { question: "Where?" });
      expect(result.isError).toBe(false);
      expect(result.text).toMatch(/^The user gave no answer/);
    }
  });

  it("an answer outside the requested schema is refused by the SDK and reported to the model", async () => {
    const { client } = await setUp(() => ({ action: "accept", content: { choice: "Moon" } }));
    const result = await call(client, "ask_user", {
      question: "Which environment?",
      options: ["Staging", "Production"],
    });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^Error \[INTERNAL\]: The question could not be put to the user: /);
    expect(result.text).toContain("does not match requested schema");
  });
});

describe("createMcpInteractionHandler: confirm over elicitation", () => {
  it("is one boolean field with the tool's default; accept returns its value", async () => {
    const { client, asked } = await setUp(() => ({
      action: "accept",
      content: { confirmed: true },
    }));
    const result = await call(client, "confirm", { message: "Delete build/?", default: false });
    expect(result.text).toMatch(/confirmed/i);
    expect(asked[0]).toEqual({
      mode: "form",
      message: "Delete build/?",
      requestedSchema: {
        type: "object",
        properties: {
          confirmed: {
            type: "boolean",
            title: "Confirm",
            description: "Yes to go ahead, no to refuse.",
            default: false,
          },
        },
        required: ["confirmed"],
      },
    });
  });

  it("accept with false, decline → not confirmed; cancel → the default", async () => {
    const cases: [ElicitResult, { confirmed: boolean; defaulted: boolean }][] = [
      [
        { action: "accept", content: { confirmed: false } },
        { confirmed: false, defaulted: false },
      ],
      [
        { action: "accept", content: { confirmed: true } },
        { confirmed: true, defaulted: false },
      ],
      [{ action: "decline" }, { confirmed: false, defaulted: false }],
      [{ action: "cancel" }, { confirmed: true, defaulted: true }],
    ];
    for (const [answer, expected] of cases) {
      const { client } = await setUp(() => answer, { structuredContent: "always" });
      const result = await call(client, "confirm", { message: "Go ahead?", default: true });
      expect(result.isError).toBe(false);
      expect(result.data).toMatchObject(expected);
    }
  });
});

describe("createMcpInteractionHandler: cancellation and timeouts", () => {
  it("the client's abort of the tool call cancels the pending elicitation", async () => {
    let pendingSignal: AbortSignal | undefined;
    let reached: () => void = () => {};
    const arrived = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const { client } = await setUp(
      (_request, signal) =>
        new Promise<ElicitResult>((resolve) => {
          pendingSignal = signal;
          signal.addEventListener("abort", () => resolve({ action: "cancel" }));
          reached();
        }),
    );
    const controller = new AbortController();
    const pending = call(client, "ask_user", { question: "Where?" }, { signal: controller.signal });
    await arrived;
    expect(pendingSignal?.aborted).toBe(false);
    controller.abort();
    await expect(pending).rejects.toThrow();
    await expect.poll(() => pendingSignal?.aborted).toBe(true);
  });

  it("the tool's own timeout cancels the elicitation with the tool's TIMEOUT message", async () => {
    let pendingSignal: AbortSignal | undefined;
    const { client } = await setUp(
      (_request, signal) =>
        new Promise<ElicitResult>((resolve) => {
          pendingSignal = signal;
          signal.addEventListener("abort", () => resolve({ action: "cancel" }));
        }),
      { timeoutMs: 50 },
    );
    const result = await call(client, "ask_user", { question: "Where?" });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^Error \[TIMEOUT\]: The user did not answer within 50 ms/);
    await expect.poll(() => pendingSignal?.aborted).toBe(true);
  });

  it("waits past the SDK's 60 s default request timeout when the tool waits longer", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    let reply: (result: ElicitResult) => void = () => {};
    let reached: () => void = () => {};
    const arrived = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const { client } = await setUp(
      () =>
        new Promise<ElicitResult>((resolve) => {
          reply = resolve;
          reached();
        }),
    );
    const pending = call(client, "ask_user", { question: "Where?" });
    await arrived;
    await vi.advanceTimersByTimeAsync(120_000);
    reply({ action: "accept", content: { answer: "Later" } });
    const result = await pending;
    expect(result.text).toBe("The user answered: Later");
  });
});

describe("createMcpInteractionHandler: notify", () => {
  it("sends a logging message with the level and the agentool logger", async () => {
    const { client, logged } = await setUp(undefined);
    for (const level of ["info", "warning", "error"] as const) {
      const result = await call(client, "notify", { message: `Indexed (${level})`, level });
      expect(result.isError).toBe(false);
      expect(result.text).toBe(
        `Notification sent (${level}). The user is not expected to reply; continue.`,
      );
    }
    await expect.poll(() => logged.length).toBe(3);
    expect(logged).toEqual(
      ["info", "warning", "error"].map((level) => ({
        level,
        logger: MCP_NOTIFICATION_LOGGER,
        data: `Indexed (${level})`,
      })),
    );
  });

  it("honours the client's logging level", async () => {
    const { client, logged } = await setUp(undefined);
    await client.setLoggingLevel("error");
    await call(client, "notify", { message: "minor", level: "info" });
    await call(client, "notify", { message: "major", level: "error" });
    await expect.poll(() => logged.length).toBe(1);
    expect(logged[0]?.data).toBe("major");
  });

  it("says the notification was not delivered when the server has no logging capability", async () => {
    const { client, logged } = await setUp(undefined, { logging: false });
    const result = await call(client, "notify", { message: "hello" });
    expect(result.text).toMatch(
      /^The notification was not delivered \(the MCP server did not declare the logging capability/,
    );
    expect(logged).toEqual([]);
  });
});

describe("clientSupportsElicitation", () => {
  it("is false before initialize, then follows the client's capability", async () => {
    const server = new McpServer({ name: "s", version: "1.0.0" });
    expect(clientSupportsElicitation(server)).toBe(false);
    const without = await setUp(undefined);
    expect(clientSupportsElicitation(without.server)).toBe(false);
    expect(clientSupportsElicitation(without.server.server)).toBe(false);
    const withIt = await setUp(() => ({ action: "cancel" }));
    expect(clientSupportsElicitation(withIt.server)).toBe(true);
  });

  it("ask_user without the client's capability fails with a message, not a hang", async () => {
    const { client } = await setUp(undefined);
    const result = await call(client, "ask_user", { question: "Where?" });
    expect(result.isError).toBe(true);
    expect(result.text).toContain("Client does not support form elicitation");
  });
});
