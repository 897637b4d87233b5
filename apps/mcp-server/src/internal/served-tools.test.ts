import { defineTool, ok, type ToolResult } from "@agentool/contract";
import type { InteractionHandler } from "@agentool/tools-interact";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { FamilyModules } from "./family-modules.js";
import { ServedTools } from "./served-tools.js";

/** A `think` that waits until its call is stopped and records why. */
function waitingTools(seen: string[], started: () => void) {
  const waiting = (name: string) =>
    defineTool({
      name,
      description: "Waits until the call is stopped (test double).",
      input: z.object({}),
      annotations: { readOnly: true },
      execute: (_input, context) =>
        new Promise<ToolResult<Record<string, never>>>((resolve) => {
          started();
          context.signal.addEventListener("abort", () => {
            const reason = context.signal.reason as Error | undefined;
            seen.push(reason?.message ?? String(reason));
            resolve(ok({}));
          });
        }),
    });
  return [waiting("think"), waiting("update_plan")];
}

async function serve(seen: string[]) {
  let markStarted: () => void = () => {};
  const startedOnce = () => new Promise<void>((resolve) => (markStarted = resolve));
  const modules = {
    core: { createCoreTools: () => waitingTools(seen, () => markStarted()) },
  } as unknown as FamilyModules;
  const tools = new ServedTools({
    configuration: {
      families: ["core"],
      mode: "read-only",
      allowCommands: [],
      searxng: undefined,
      allowHosts: [],
    },
    state: { root: undefined, elicitation: false, handler: {} as InteractionHandler },
    knowledge: undefined,
    sharedKnowledge: false,
    log: () => {},
    modules,
  });
  const server = new McpServer({ name: "test", version: "1.0.0" }, { capabilities: { tools: {} } });
  tools.register(server);
  const client = new Client({ name: "test", version: "1.0.0" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  return { tools, server, client, startedOnce };
}

describe("ServedTools call signals", () => {
  it("stops a call when the client cancels it, and when the server is disposed", async () => {
    const seen: string[] = [];
    const { tools, server, client, startedOnce } = await serve(seen);
    const cancel = new AbortController();
    const started = startedOnce();
    const cancelled = client
      .callTool({ name: "think", arguments: {} }, undefined, { signal: cancel.signal })
      .catch((error: Error) => error);
    await started;
    cancel.abort(new Error("the user cancelled"));
    expect(await cancelled).toBeInstanceOf(Error);
    await expect.poll(() => seen.length).toBe(1);

    const running = startedOnce();
    void client.callTool({ name: "update_plan", arguments: {} }).catch(() => {});
    await running;
    const disposedAt = Date.now();
    await tools.dispose(server);
    // The call saw the disposal (dispose would otherwise wait ten seconds for it).
    expect(Date.now() - disposedAt).toBeLessThan(5_000);
    expect(seen[1]).toBe("agentool-mcp is shutting down.");
  });
});
