import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpProcess, initializeBody, startHttpProcess } from "./test-support/http-process.js";
import { requireBuiltCli } from "./test-support/spawn-server.js";

interface SseEvent {
  id?: string;
  retry?: string;
  data: string;
}

function parseEvents(text: string): SseEvent[] {
  return text
    .split("\n\n")
    .filter((block) => block.trim().length > 0 && !block.startsWith(":"))
    .map((block) => {
      const event: SseEvent = { data: "" };
      for (const line of block.split("\n")) {
        const [field, ...rest] = line.split(":");
        const value = rest.join(":").replace(/^ /, "");
        if (field === "id") event.id = value;
        if (field === "retry") event.retry = value;
        if (field === "data") event.data += value;
      }
      return event;
    });
}

/** Reads an SSE response until `done` holds for the events so far, then drops the connection. */
async function readUntil(
  response: Response,
  abort: AbortController,
  done: (events: SseEvent[]) => boolean,
): Promise<SseEvent[]> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = "";
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const complete = text.slice(0, text.lastIndexOf("\n\n") + 2);
    if (done(parseEvents(complete))) {
      abort.abort();
      return parseEvents(complete);
    }
    const { value, done: ended } = await reader.read();
    if (ended) break;
    text += decoder.decode(value, { stream: true });
  }
  abort.abort();
  throw new Error(`the stream ended without the expected events:\n${text}`);
}

describe("resumable SSE on Streamable HTTP", () => {
  let server: HttpProcess;

  beforeAll(async () => {
    requireBuiltCli();
    server = await startHttpProcess(["--http", "0", "--families", "core"], {
      AGENTOOL_MCP_TOKEN: "resume-token",
    });
  });

  afterAll(async () => {
    await server?.stop();
  });

  function post(body: string, headers: Record<string, string>, signal?: AbortSignal) {
    return fetch(server.url, {
      method: "POST",
      headers: {
        authorization: "Bearer resume-token",
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...headers,
      },
      body,
      ...(signal === undefined ? {} : { signal }),
    });
  }

  async function open(protocolVersion: string): Promise<{ sessionId: string; events: SseEvent[] }> {
    const abort = new AbortController();
    const response = await post(initializeBody(protocolVersion), {}, abort.signal);
    expect(response.status).toBe(200);
    const sessionId = response.headers.get("mcp-session-id") as string;
    const events = await readUntil(response, abort, (list) =>
      list.some((event) => event.data.includes('"result"')),
    );
    const initialized = await post(
      JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
      { "mcp-session-id": sessionId, "mcp-protocol-version": protocolVersion },
    );
    expect(initialized.status).toBe(202);
    return { sessionId, events };
  }

  it("starts each stream with a priming event carrying an id and the retry delay; every event has an id", async () => {
    const { events } = await open("2025-11-25");
    const [priming, result] = events;
    expect(priming).toEqual({ id: expect.stringMatching(/~1$/), retry: "1000", data: "" });
    expect(result?.id).toMatch(/~2$/);
    expect(JSON.parse(result?.data ?? "{}")).toMatchObject({ id: 1, result: {} });
  });

  it("gives events ids for older clients too (no priming event: they cannot parse empty data)", async () => {
    const { events } = await open("2025-06-18");
    expect(events[0]?.retry).toBeUndefined();
    expect(events[0]?.id).toMatch(/~1$/);
    expect(JSON.parse(events[0]?.data ?? "{}")).toMatchObject({ id: 1, result: {} });
  });

  it("replays what a dropped stream missed to a GET with Last-Event-ID", async () => {
    const { sessionId } = await open("2025-11-25");
    const headers = { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" };
    const call = JSON.stringify({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "think", arguments: { thought: "resume me" } },
    });
    const abort = new AbortController();
    const response = await post(call, headers, abort.signal);
    // Only the priming event is read; the connection drops before the result is read.
    const [priming] = await readUntil(response, abort, (list) => list.length >= 1);
    expect(priming?.data).toBe("");
    await new Promise((resolve) => setTimeout(resolve, 300));

    const again = new AbortController();
    const resumed = await fetch(server.url, {
      headers: {
        authorization: "Bearer resume-token",
        accept: "text/event-stream",
        "last-event-id": priming?.id as string,
        ...headers,
      },
      signal: again.signal,
    });
    expect(resumed.status).toBe(200);
    const replayed = await readUntil(resumed, again, (list) =>
      list.some((event) => event.data.includes('"id":2')),
    );
    const result = replayed.find((event) => event.data.includes('"id":2'));
    expect(result?.id).toMatch(/~\d+$/);
    expect(JSON.parse(result?.data ?? "{}")).toMatchObject({
      id: 2,
      result: { content: [{ type: "text" }] },
    });

    // An id this session never issued is refused, not answered with an empty replay.
    const unknown = await fetch(server.url, {
      headers: {
        authorization: "Bearer resume-token",
        accept: "text/event-stream",
        "last-event-id": "no-such-stream~999",
        ...headers,
      },
    });
    expect(unknown.status).toBe(400);
    await unknown.body?.cancel();
  });

  it("hands a real SDK client resumption tokens (the event ids) as it reads them", async () => {
    const client = new Client({ name: "resume-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(server.url, {
        requestInit: { headers: { Authorization: "Bearer resume-token" } },
      }),
    );
    try {
      const tokens: string[] = [];
      const result = await client.callTool(
        { name: "think", arguments: { thought: "tokens" } },
        CallToolResultSchema,
        { onresumptiontoken: (token) => tokens.push(token) },
      );
      expect(result.isError).not.toBe(true);
      expect(tokens.length).toBeGreaterThanOrEqual(2);
      for (const token of tokens) expect(token).toMatch(/^[^~]+~\d+$/);
    } finally {
      await client.close();
    }
  });
});
