import { readdirSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  AgentoolError,
  type AnyTool,
  defineTool,
  fail,
  ok,
  type ToolResult,
  toJsonSchema,
} from "@agentool/contract";
import { createNodeFsTools } from "@agentool/tools-fs/node";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { JSONRPCMessage, Progress } from "@modelcontextprotocol/sdk/types.js";
import {
  CallToolResultSchema,
  ListToolsResultSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  contextTool,
  createSlowTool,
  echoTool,
  PIXEL_PNG,
  readNoteTool,
  screenshotTool,
  searchTool,
} from "../test-fixtures.js";
import { registerTools } from "./register-tools.js";

interface Session {
  client: Client;
  /** Every message the client received, in order. */
  received: JSONRPCMessage[];
}

const open: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

async function connect(
  server: McpServer | Server,
  client = new Client({ name: "test-client", version: "1.0.0" }),
): Promise<Session> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  const received: JSONRPCMessage[] = [];
  const deliver = clientTransport.onmessage;
  clientTransport.onmessage = (message, extra) => {
    received.push(message);
    deliver?.(message, extra);
  };
  open.push(async () => {
    await client.close();
    await server.close();
  });
  return { client, received };
}

function newServer(): McpServer {
  return new McpServer({ name: "agentool-test", version: "1.0.0" });
}

function listChanged(client: Client): { count: () => number; next: () => Promise<void> } {
  let count = 0;
  const waiters: (() => void)[] = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    count += 1;
    for (const resolve of waiters.splice(0)) resolve();
  });
  return {
    count: () => count,
    next: () => new Promise<void>((resolve) => waiters.push(resolve)),
  };
}

async function names(client: Client): Promise<string[]> {
  return (await client.listTools()).tools.map((tool) => tool.name);
}

function textOf(result: unknown): string {
  const parsed = CallToolResultSchema.parse(result);
  return parsed.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

const statusTool = defineTool({
  name: "note_status",
  description: "Counts the notes.",
  input: z.object({}),
  output: z.object({
    count: z.number().int().describe("How many notes."),
    newest: z.string().optional().describe("The newest note's title."),
  }),
  annotations: { readOnly: true, idempotent: true },
  execute: () => ok({ count: 3, newest: "Plans" }),
  render: ({ count }) => `${count} notes.`,
});

const removeTool = defineTool({
  name: "remove_note",
  description: "Removes a note.",
  input: z.object({ title: z.string().describe("The note's title.") }),
  annotations: { title: "Remove a note", destructive: true, idempotent: false, openWorld: false },
  execute: ({ title }) => ok({ removed: title }),
  render: ({ removed }) => `Removed ${removed}.`,
});

/** A tool without a renderer: its text is the data as JSON. */
const plainTool = defineTool({
  name: "plain_data",
  description: "Returns data without a renderer.",
  input: z.object({}),
  execute: () => ok({ answer: 42 }),
});

describe("registerTools: tools/list", () => {
  it("lists every tool with the contract's input schema, accepted by the SDK", async () => {
    const server = newServer();
    const tools: AnyTool[] = [echoTool, searchTool, statusTool, removeTool];
    registerTools(server, tools);
    const { client } = await connect(server);
    const listed = await client.listTools();
    expect(ListToolsResultSchema.safeParse(listed).success).toBe(true);
    expect(listed.tools.map((tool) => tool.name)).toEqual(tools.map((tool) => tool.name));
    for (const tool of tools) {
      const entry = listed.tools.find((candidate) => candidate.name === tool.name);
      expect(entry?.inputSchema).toEqual(toJsonSchema(tool));
      expect(entry?.description).toBe(tool.description);
    }
  });

  it("maps annotations to MCP's hints, with a title", async () => {
    const server = newServer();
    registerTools(server, [echoTool, removeTool, contextTool]);
    const { client } = await connect(server);
    const listed = await client.listTools();
    const byName = new Map(listed.tools.map((tool) => [tool.name, tool]));
    expect(byName.get("echo")?.title).toBe("Echo");
    expect(byName.get("echo")?.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
    expect(byName.get("remove_note")?.title).toBe("Remove a note");
    expect(byName.get("remove_note")?.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: false,
    });
    expect(byName.get("show_context")?.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    });
  });

  it("lists outputSchema for declared output only, and none with structuredContent: never", async () => {
    const declared = newServer();
    registerTools(declared, [statusTool, echoTool]);
    const { client } = await connect(declared);
    const listed = await client.listTools();
    expect(listed.tools[0]?.outputSchema).toMatchObject({
      type: "object",
      properties: { count: { type: "integer" } },
    });
    expect(listed.tools[1]?.outputSchema).toBeUndefined();

    const never = newServer();
    registerTools(never, [statusTool], { structuredContent: "never" });
    const other = await connect(never);
    expect((await other.client.listTools()).tools[0]?.outputSchema).toBeUndefined();

    const unlisted = newServer();
    registerTools(unlisted, [statusTool], { outputSchemas: false });
    const third = await connect(unlisted);
    expect((await third.client.listTools()).tools[0]?.outputSchema).toBeUndefined();
    const called = await third.client.callTool({ name: statusTool.name, arguments: {} });
    expect(called.structuredContent).toBeDefined();
  });
});

describe("registerTools: tools/call", () => {
  it("returns rendered text, and structuredContent that passes the client's outputSchema check", async () => {
    const server = newServer();
    registerTools(server, [echoTool, statusTool]);
    const { client } = await connect(server);
    await client.listTools(); // the client caches the output validators
    const echoed = await client.callTool({ name: "echo", arguments: { text: "hi", times: 2 } });
    expect(echoed).toEqual({ content: [{ type: "text", text: "hi hi" }] });
    const status = await client.callTool({ name: "note_status", arguments: {} });
    expect(status).toEqual({
      content: [{ type: "text", text: "3 notes." }],
      structuredContent: { count: 3, newest: "Plans" },
    });
  });

  it("sends text and image content", async () => {
    const server = newServer();
    registerTools(server, [screenshotTool]);
    const { client } = await connect(server);
    const result = await client.callTool({ name: "screenshot", arguments: {} });
    expect(result.content).toEqual([
      { type: "text", text: "Screenshot 1×1" },
      { type: "image", data: PIXEL_PNG, mimeType: "image/png" },
    ]);
  });

  it("structuredContent: always sends data for every success, never sends none", async () => {
    const always = newServer();
    registerTools(always, [echoTool, statusTool, plainTool], { structuredContent: "always" });
    const first = await connect(always);
    await first.client.listTools();
    expect(await first.client.callTool({ name: "echo", arguments: { text: "a" } })).toEqual({
      content: [{ type: "text", text: "a" }],
      structuredContent: { text: "a" },
    });
    // Without a renderer the text already is the data as JSON: not sent twice.
    expect(await first.client.callTool({ name: "plain_data", arguments: {} })).toEqual({
      content: [{ type: "text", text: JSON.stringify({ answer: 42 }, null, 2) }],
    });

    const never = newServer();
    registerTools(never, [statusTool], { structuredContent: "never" });
    const second = await connect(never);
    await second.client.listTools();
    expect(await second.client.callTool({ name: "note_status", arguments: {} })).toEqual({
      content: [{ type: "text", text: "3 notes." }],
    });
  });

  it("never sends the data twice: a big listing's text is the rendering, once", async () => {
    const root = await mkdtemp(join(tmpdir(), "agentool-mcp-list-"));
    try {
      await Promise.all(
        Array.from({ length: 300 }, (_, index) =>
          writeFile(join(root, `file-${String(index).padStart(4, "0")}.txt`), "x"),
        ),
      );
      const server = newServer();
      registerTools(
        server,
        createNodeFsTools({ root }).filter((tool) => tool.name === "list_directory"),
      );
      const { client, received } = await connect(server);
      const result = await client.callTool({
        name: "list_directory",
        arguments: { path: ".", limit: 500 },
      });
      expect(result.structuredContent).toBeUndefined();
      const content = CallToolResultSchema.parse(result).content;
      expect(content).toHaveLength(1);
      expect(textOf(result)).toContain("file-0299.txt");
      const wire = JSON.stringify(received.at(-1));
      expect(wire.split("file-0299.txt")).toHaveLength(2);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it("turns a failure into isError with the Error [CODE] text", async () => {
    const server = newServer();
    registerTools(server, [readNoteTool]);
    const { client } = await connect(server);
    const result = await client.callTool({ name: "read_note", arguments: { title: "x" } });
    expect(result).toEqual({
      isError: true,
      content: [
        {
          type: "text",
          text: 'Error [FILE_NOT_FOUND]: There is no note titled "x".\nHint: Call list_notes to see the titles.',
        },
      ],
    });
  });

  it("a failure of a tool with output has no structuredContent and passes the client's check", async () => {
    const failing = defineTool({
      name: "count_failing",
      description: "Fails to count.",
      input: z.object({}),
      output: z.object({ count: z.number() }),
      execute: () => fail("NOT_CONFIGURED", "No notes folder is configured."),
    });
    const server = newServer();
    registerTools(server, [failing]);
    const { client } = await connect(server);
    await client.listTools();
    const result = await client.callTool({ name: "count_failing", arguments: {} });
    expect(result).toEqual({
      isError: true,
      content: [{ type: "text", text: "Error [NOT_CONFIGURED]: No notes folder is configured." }],
    });
  });

  it("a misspelled field gets the contract's did-you-mean, aliases are honoured", async () => {
    const aliased = defineTool({
      name: "open_note",
      description: "Opens a note.",
      input: z.object({ title: z.string().describe("The note's title.") }),
      aliases: { name: "title" },
      execute: ({ title }) => ok({ title }),
      render: ({ title }) => `Opened ${title}.`,
    });
    const server = newServer();
    registerTools(server, [echoTool, aliased]);
    const { client } = await connect(server);
    const wrong = await client.callTool({ name: "echo", arguments: { txt: "hi" } });
    expect(wrong.isError).toBe(true);
    expect(textOf(wrong)).toMatch(/^Error \[INVALID_INPUT\]: Invalid input for echo: /);
    expect(textOf(wrong)).toContain('did you mean "text"');
    const alias = await client.callTool({ name: "open_note", arguments: { name: "Plans" } });
    expect(textOf(alias)).toBe("Opened Plans.");
  });

  it("an unknown tool is an isError result naming the available tools", async () => {
    const server = newServer();
    registerTools(server, [echoTool, statusTool]);
    const { client } = await connect(server);
    const result = await client.callTool({ name: "ecko", arguments: {} });
    expect(result).toEqual({
      isError: true,
      content: [
        {
          type: "text",
          text: 'Error [UNSUPPORTED]: There is no tool named "ecko".\nHint: Call one of the available tools instead: echo, note_status.',
        },
      ],
    });
  });

  it("passes toolCallId = the request id and threadId = the session id or the option's", async () => {
    const server = newServer();
    registerTools(server, [contextTool]);
    const { client } = await connect(server);
    const first = await client.callTool({ name: "show_context", arguments: {} });
    const data = JSON.parse(textOf(first)) as { tool_call_id: string; thread_id?: string };
    expect(data.tool_call_id).toMatch(/^\d+$/);
    expect(data.thread_id).toBeUndefined(); // the in-memory transport has no session id

    const threaded = newServer();
    const seen: unknown[] = [];
    registerTools(threaded, [contextTool], {
      threadId: (extra) => {
        seen.push(extra.requestId);
        return "thread-7";
      },
    });
    const other = await connect(threaded);
    const second = await other.client.callTool({ name: "show_context", arguments: {} });
    const secondData = JSON.parse(textOf(second)) as { tool_call_id: string; thread_id: string };
    expect(secondData.thread_id).toBe("thread-7");
    expect(secondData.tool_call_id).toBe(String(seen[0]));
  });
});

describe("registerTools: progress", () => {
  it("sends increasing progress notifications to a client that passes onprogress", async () => {
    const { tool } = createSlowTool(1, 10);
    const server = newServer();
    registerTools(server, [tool]);
    const { client } = await connect(server);
    const updates: Progress[] = [];
    const result = await client.callTool({ name: "slow_count", arguments: { to: 5 } }, undefined, {
      onprogress: (progress) => updates.push(progress),
    });
    expect(result.isError ?? false).toBe(false);
    expect(updates).toEqual(
      [1, 2, 3, 4, 5].map((step) => ({ progress: step, total: 5, message: `counted to ${step}` })),
    );
  });

  it("keeps progress increasing when a tool reports no or repeated counts", async () => {
    const irregular = defineTool({
      name: "irregular",
      description: "Reports irregular progress.",
      input: z.object({}),
      execute: (_input, context) => {
        context.progress({ message: "starting" });
        context.progress({ completed: 1, total: 3 });
        context.progress({ completed: 1, total: 3, message: "still one" });
        context.progress({ completed: 7, total: 3 });
        return ok({ done: true });
      },
    });
    const server = newServer();
    registerTools(server, [irregular]);
    const { client } = await connect(server);
    const updates: Progress[] = [];
    await client.callTool({ name: "irregular", arguments: {} }, undefined, {
      onprogress: (progress) => updates.push(progress),
    });
    expect(updates).toEqual([
      { progress: 1, message: "starting" },
      { progress: 2, total: 3 },
      { progress: 3, total: 3, message: "still one" },
      { progress: 7 },
    ]);
  });

  it("sends no progress notification without a progress token", async () => {
    const { tool, state } = createSlowTool(1, 10);
    const server = newServer();
    registerTools(server, [tool]);
    const { client, received } = await connect(server);
    await client.callTool({ name: "slow_count", arguments: { to: 4 } });
    expect(state.finished).toBe(1);
    expect(received.filter((message) => "method" in message)).toEqual([]);
  });
});

describe("registerTools: cancellation", () => {
  it("the client's abort reaches the run's signal", async () => {
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    let observed: unknown;
    const waiter = defineTool({
      name: "wait_forever",
      description: "Waits until cancelled.",
      input: z.object({}),
      timeoutMs: 0,
      execute: (_input, context) =>
        new Promise<ToolResult<{ cancelled: boolean }>>((resolve) => {
          context.signal.addEventListener("abort", () => {
            observed = context.signal.reason;
            resolve(ok({ cancelled: true }));
          });
          started();
        }),
    });
    const server = newServer();
    registerTools(server, [waiter]);
    const { client } = await connect(server);
    const controller = new AbortController();
    const call = client.callTool({ name: "wait_forever", arguments: {} }, undefined, {
      signal: controller.signal,
    });
    await running;
    controller.abort(new Error("user pressed stop"));
    await expect(call).rejects.toThrow();
    await expect.poll(() => observed).toBeDefined();
  });

  describe("a real grep_search", () => {
    let root = "";
    beforeAll(async () => {
      root = await mkdtemp(join(tmpdir(), "agentool-mcp-grep-"));
      // Unicode words defeat ripgrep's literal and ASCII fast paths; with the counted repetition
      // below a scan of this corpus takes ripgrep many seconds.
      const words = "αλφα βήτα γάμμα δέλτα έψιλον ζήτα ήτα θήτα щука ёлка ñandú".split(" ");
      const line = Array.from(
        { length: 2_000 },
        (_, index) => `${words[(index * 7) % words.length]}${index}`,
      ).join(" ");
      await mkdir(join(root, "big"));
      const text = `${line}\n`.repeat(20);
      await Promise.all(
        Array.from({ length: 40 }, (_, index) =>
          writeFile(join(root, "big", `part-${index}.txt`), text),
        ),
      );
    });
    afterAll(async () => {
      if (root !== "") await rm(root, { recursive: true, force: true });
    });

    it("is stopped and its rg child is gone after the client cancels", async () => {
      const server = newServer();
      registerTools(
        server,
        createNodeFsTools({ root }).filter((tool) => tool.name === "grep_search"),
      );
      const { client } = await connect(server);
      const controller = new AbortController();
      const call = client.callTool(
        {
          name: "grep_search",
          arguments: { pattern: String.raw`(\b\w+\b\s){1,30}\b\w{4}\d{5}\b\s\b\w\b`, path: "big" },
        },
        undefined,
        { signal: controller.signal, timeout: 120_000 },
      );
      const settled = call.then(
        () => "finished",
        () => "rejected",
      );
      await expect.poll(() => ripgrepChildren().length, { timeout: 20_000 }).toBeGreaterThan(0);
      const children = ripgrepChildren();
      controller.abort();
      expect(await settled).toBe("rejected");
      await expect
        .poll(() => children.filter((pid) => isAlive(pid)), { timeout: 10_000 })
        .toEqual([]);
    }, 60_000);
  });
});

/** Process ids of rg processes below this one (Linux /proc). */
function ripgrepChildren(): number[] {
  const parents = new Map<number, number>();
  const commands = new Map<number, string>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      const command = stat.slice(stat.indexOf("(") + 1, close);
      const fields = stat.slice(close + 2).split(" ");
      parents.set(Number(entry), Number(fields[1]));
      commands.set(Number(entry), command);
    } catch {
      // The process ended meanwhile.
    }
  }
  const below = (pid: number): boolean => {
    let current = parents.get(pid);
    for (let depth = 0; current !== undefined && depth < 20; depth += 1) {
      if (current === process.pid) return true;
      current = parents.get(current);
    }
    return false;
  };
  return [...commands]
    .filter(([pid, command]) => command === "rg" && below(pid))
    .map(([pid]) => pid);
}

function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !/\) Z /.test(stat);
  } catch {
    return false;
  }
}

describe("registerTools: registrations", () => {
  it("replace() and remove() change the list and send list_changed", async () => {
    const server = newServer();
    const registration = registerTools(server, [echoTool]);
    const { client } = await connect(server);
    const changes = listChanged(client);
    let next = changes.next();
    registration.replace([statusTool, removeTool]);
    await next;
    expect(await names(client)).toEqual(["note_status", "remove_note"]);
    expect(registration.names).toEqual(["note_status", "remove_note"]);
    next = changes.next();
    registration.remove();
    await next;
    expect(await names(client)).toEqual([]);
    expect(registration.names).toEqual([]);
    const called = await client.callTool({ name: "note_status", arguments: {} });
    expect(textOf(called)).toContain("Error [UNSUPPORTED]");
    next = changes.next();
    registration.replace([echoTool]);
    await next;
    expect(await names(client)).toEqual(["echo"]);
    expect(changes.count()).toBe(3);
  });

  it("two registerTools calls add up, in order, and each replaces only its own tools", async () => {
    const server = newServer();
    const first = registerTools(server, [echoTool]);
    const second = registerTools(server, [statusTool], { structuredContent: "never" });
    const { client } = await connect(server);
    expect(await names(client)).toEqual(["echo", "note_status"]);
    const changes = listChanged(client);
    const next = changes.next();
    first.replace([removeTool, searchTool]);
    await next;
    expect(await names(client)).toEqual(["remove_note", "search_notes", "note_status"]);
    // Each registration keeps its own options.
    expect(await client.callTool({ name: "note_status", arguments: {} })).toEqual({
      content: [{ type: "text", text: "3 notes." }],
    });
    expect(second.names).toEqual(["note_status"]);
  });

  it("a registerTools call after connect adds tools and sends list_changed", async () => {
    const server = newServer();
    registerTools(server, [echoTool]);
    const { client } = await connect(server);
    const changes = listChanged(client);
    const next = changes.next();
    registerTools(server, [statusTool]);
    await next;
    expect(await names(client)).toEqual(["echo", "note_status"]);
  });

  it("refuses duplicate names, within a list and across registrations, changing nothing", async () => {
    const server = newServer();
    expect(() => registerTools(server, [echoTool, echoTool])).toThrow(AgentoolError);
    expect(() => registerTools(server, [echoTool, echoTool])).toThrow(/two tools are named "echo"/);
    const first = registerTools(server, [echoTool]);
    const second = registerTools(server, [statusTool]);
    expect(() => registerTools(server, [echoTool])).toThrow(
      /a tool named "echo" is already served on this server by another registerTools call/,
    );
    expect(() => second.replace([echoTool])).toThrow(/"echo" is already served/);
    expect(second.names).toEqual(["note_status"]);
    first.replace([echoTool, removeTool]);
    const { client } = await connect(server);
    expect(await names(client)).toEqual(["echo", "remove_note", "note_status"]);
  });

  it("refuses what is not a tool and bad options", () => {
    const server = newServer();
    expect(() => registerTools(server, [{ name: "x" } as unknown as AnyTool])).toThrow(
      /the entry at index 0 is not a tool made by defineTool/,
    );
    expect(() =>
      registerTools(server, [echoTool], { structuredContent: "sometimes" as "always" }),
    ).toThrow(/registerTools: invalid options — structuredContent/);
    expect(() =>
      registerTools(server, [echoTool], { threads: true } as unknown as { threadId: never }),
    ).toThrow(/Known options: structuredContent, outputSchemas, threadId/);
    expect(() => registerTools({} as McpServer, [echoTool])).toThrow(
      /expected an McpServer or a Server/,
    );
  });
});

describe("registerTools: sharing a server with the SDK", () => {
  it("refuses a server whose McpServer.registerTool tools own the handlers", () => {
    const server = newServer();
    server.registerTool("native", { description: "A native tool." }, () => ({ content: [] }));
    expect(() => registerTools(server, [echoTool])).toThrow(AgentoolError);
    expect(() => registerTools(server, [echoTool])).toThrow(
      /already serves tools registered with McpServer\.registerTool \(native\).*defineTool/,
    );
  });

  it("makes a later McpServer.registerTool fail loudly", () => {
    const server = newServer();
    registerTools(server, [echoTool]);
    expect(() =>
      server.registerTool("native", { description: "A native tool." }, () => ({ content: [] })),
    ).toThrow(/tools\/list already exists/);
  });

  it("serves an McpServer created with the tools capability (its empty handlers are replaced)", async () => {
    const server = new McpServer(
      { name: "agentool-test", version: "1.0.0" },
      { capabilities: { tools: { listChanged: true }, logging: {} } },
    );
    registerTools(server, [echoTool]);
    const { client } = await connect(server);
    expect(await names(client)).toEqual(["echo"]);
    expect(textOf(await client.callTool({ name: "echo", arguments: { text: "x" } }))).toBe("x");
  });

  it("serves a low-level Server, and refuses one whose tools/list has another handler", async () => {
    const low = new Server({ name: "low", version: "1.0.0" });
    registerTools(low, [echoTool]);
    const { client } = await connect(low);
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
    expect(await names(client)).toEqual(["echo"]);

    const taken = new McpServer(
      { name: "taken", version: "1.0.0" },
      { capabilities: { tools: {} } },
    );
    expect(() => registerTools(taken.server, [echoTool])).toThrow(
      /tools\/list already has a request handler that is not agentool's \(when it is an McpServer's, pass the McpServer itself/,
    );
  });

  it("after connect, needs the tools capability declared in the server's options", async () => {
    const bare = newServer();
    await connect(bare);
    expect(() => registerTools(bare, [echoTool])).toThrow(
      /already connected and did not declare the tools capability; call registerTools before server\.connect/,
    );
    const declared = new McpServer(
      { name: "declared", version: "1.0.0" },
      { capabilities: { tools: { listChanged: true } } },
    );
    const { client } = await connect(declared);
    const changes = listChanged(client);
    const next = changes.next();
    registerTools(declared, [echoTool]);
    await next;
    expect(await names(client)).toEqual(["echo"]);
  });
});
