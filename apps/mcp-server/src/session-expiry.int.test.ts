import { afterEach, describe, expect, it } from "vitest";
import { parseCommandLine } from "./command-line.js";
import { createAgentoolMcpServer } from "./create-agentool-mcp-server.js";
import { type RunningHttpServer, startHttpServer } from "./http-server.js";
import { startHttpProcess } from "./test-support/http-process.js";
import { rawPost } from "./test-support/raw-post.js";
import { waitUntil } from "./test-support/spawn-server.js";
import { usageError } from "./test-support/tool-results.js";

const TOKEN = "session-expiry-token";
const authorization = `Bearer ${TOKEN}`;
const LIST = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" });

const servers: RunningHttpServer[] = [];
const streams: AbortController[] = [];
afterEach(async () => {
  for (const stream of streams.splice(0)) stream.abort();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(options: { maxSessions: number; sessionIdleMs?: number }) {
  const server = await startHttpServer({
    port: 0,
    token: TOKEN,
    createSession: () => createAgentoolMcpServer({ families: ["core"], log: () => {} }),
    log: () => {},
    ...options,
  });
  servers.push(server);
  return server;
}

/** Opens a session with a raw initialize (no standalone SSE stream) and returns its id, or the status. */
async function initialize(server: RunningHttpServer): Promise<string | number> {
  const response = await rawPost(server.port, { authorization });
  const id = response.headers["mcp-session-id"];
  return response.status === 200 && typeof id === "string" ? id : response.status;
}

async function openSession(server: RunningHttpServer): Promise<string> {
  const id = await initialize(server);
  if (typeof id !== "string") throw new Error(`initialize answered ${id}`);
  return id;
}

/** The status of a tools/list in the session (200 while it lives, 404 once it is gone). */
async function listStatus(server: RunningHttpServer, sessionId: string): Promise<number> {
  return (await rawPost(server.port, { authorization, "mcp-session-id": sessionId }, LIST)).status;
}

/** Opens the session's standalone SSE stream (GET) and keeps it open until the test ends. */
async function openStream(server: RunningHttpServer, sessionId: string): Promise<AbortController> {
  const abort = new AbortController();
  streams.push(abort);
  const response = await fetch(server.url, {
    headers: { authorization, accept: "text/event-stream", "mcp-session-id": sessionId },
    signal: abort.signal,
  });
  expect(response.status).toBe(200);
  return abort;
}

function pause(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}

describe("idle HTTP sessions expire", () => {
  it("closes a session idle for longer than the idle time, so a new client gets in", async () => {
    const server = await serve({ maxSessions: 1, sessionIdleMs: 200 });
    const first = await openSession(server);
    expect(await listStatus(server, first)).toBe(200);
    await waitUntil(() => server.sessionCount === 0, "the idle session was never closed", 10_000);
    expect(await listStatus(server, first)).toBe(404);
    expect(typeof (await initialize(server))).toBe("string");
  });

  it("keeps a session whose SSE stream is open, however long it is quiet", async () => {
    const server = await serve({ maxSessions: 2, sessionIdleMs: 200 });
    const watched = await openSession(server);
    const stream = await openStream(server, watched);
    await pause(1_000);
    expect(server.sessionCount).toBe(1);
    expect(await listStatus(server, watched)).toBe(200);
    stream.abort();
    await waitUntil(
      () => server.sessionCount === 0,
      "the session outlived its closed stream",
      10_000,
    );
  });
});

describe("a full session table evicts the oldest idle session", () => {
  it("lets a new client in by closing the least recently used idle session, not 503", async () => {
    const server = await serve({ maxSessions: 2 });
    const oldest = await openSession(server);
    const newer = await openSession(server);
    await pause(20);
    expect(await listStatus(server, oldest)).toBe(200); // `oldest` is now the most recent.
    const third = await openSession(server);
    expect(server.sessionCount).toBe(2);
    expect(await listStatus(server, newer)).toBe(404);
    expect(await listStatus(server, oldest)).toBe(200);
    expect(await listStatus(server, third)).toBe(200);
  });

  it("never evicts a session with an open SSE stream: with all of them streaming, 503", async () => {
    const server = await serve({ maxSessions: 2 });
    const first = await openSession(server);
    const second = await openSession(server);
    await openStream(server, first);
    await openStream(server, second);
    expect(await initialize(server)).toBe(503);
    expect(await listStatus(server, first)).toBe(200);
    expect(await listStatus(server, second)).toBe(200);
  });

  it("evicts the idle one beside a streaming one", async () => {
    const server = await serve({ maxSessions: 2 });
    const streaming = await openSession(server);
    await openStream(server, streaming);
    const idle = await openSession(server);
    expect(typeof (await initialize(server))).toBe("string");
    expect(await listStatus(server, idle)).toBe(404);
    expect(await listStatus(server, streaming)).toBe(200);
  });
});

describe("--session-idle-seconds", () => {
  it("sets the idle time of --http sessions and refuses what cannot work", () => {
    expect(parseCommandLine(["--http", "0", "--session-idle-seconds", "60"])).toMatchObject({
      options: { http: { sessionIdleSeconds: 60 } },
    });
    expect(usageError(["--session-idle-seconds", "60"])).toBe(
      "--session-idle-seconds applies to the HTTP server: add --http <port> or drop --session-idle-seconds.",
    );
    for (const value of ["0", "-5", "1.5", "soon", "604801"]) {
      expect(usageError(["--http", "0", "--session-idle-seconds", value]), value).toContain(
        "--session-idle-seconds needs a whole number of seconds from 1 to 604800",
      );
    }
    expect(usageError(["--http", "0", "--stateless", "--session-idle-seconds", "60"])).toContain(
      "--stateless keeps no sessions",
    );
  });

  it("reaches the server from the bin: a session idle for a second is gone", async () => {
    const bin = await startHttpProcess(
      ["--http", "0", "--families", "core", "--session-idle-seconds", "1"],
      { AGENTOOL_MCP_TOKEN: TOKEN },
    );
    try {
      const response = await rawPost(bin.port, { authorization });
      const sessionId = String(response.headers["mcp-session-id"]);
      expect(response.status).toBe(200);
      // Any request would keep it alive: stay quiet well past the second, then ask once.
      await pause(3_000);
      const later = await rawPost(bin.port, { authorization, "mcp-session-id": sessionId }, LIST);
      expect(later.status).toBe(404);
      expect(bin.stderr()).toContain(`session ${sessionId} closed after 1 s idle.`);
    } finally {
      await bin.stop();
    }
  });
});
