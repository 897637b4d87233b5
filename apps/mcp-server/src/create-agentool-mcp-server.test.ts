import { pathToFileURL } from "node:url";
import { AgentoolError } from "@agentool/contract";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { type CallToolResult, ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgentoolMcpServer, resolveRoot } from "./create-agentool-mcp-server.js";
import { temporaryDirectory } from "./test-support/spawn-server.js";

let project: ReturnType<typeof temporaryDirectory>;
let other: ReturnType<typeof temporaryDirectory>;

beforeAll(() => {
  project = temporaryDirectory({ "project-file.txt": "p\n" });
  other = temporaryDirectory({ "other-file.txt": "o\n" });
});
afterAll(() => {
  project?.cleanup();
  other?.cleanup();
});

async function connect(options: Parameters<typeof createAgentoolMcpServer>[0], roots?: string[]) {
  const lines: string[] = [];
  const agentool = createAgentoolMcpServer({ ...options, log: (line) => lines.push(line) });
  const client = new Client(
    { name: "in-memory", version: "1.0.0" },
    { capabilities: roots === undefined ? {} : { roots: {} } },
  );
  if (roots !== undefined) {
    client.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: roots.map((path) => ({ uri: pathToFileURL(path).href })),
    }));
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await agentool.connect(serverSide);
  await client.connect(clientSide);
  return { agentool, client, lines };
}

describe("createAgentoolMcpServer", () => {
  it("refuses options that cannot work, saying what to fix", () => {
    expect(() => createAgentoolMcpServer({ allowCommands: ["git"] })).toThrow(
      /allowCommands mounts run_command, which needs mode: "read-write"/,
    );
    expect(() => createAgentoolMcpServer({ fixedRoot: true })).toThrow(/fixedRoot needs a root/);
    expect(() => createAgentoolMcpServer({ root: `${project.path}/absent` })).toThrow(
      AgentoolError,
    );
    expect(() => createAgentoolMcpServer({ searxng: "ftp://searx.example" })).toThrow(
      AgentoolError,
    );
    expect(() => createAgentoolMcpServer({ families: ["fs", "files" as never] as never })).toThrow(
      AgentoolError,
    );
  });

  it("resolveRoot explains a missing root and a file", () => {
    expect(() => resolveRoot(`${project.path}/absent`, "--root")).toThrow(
      `--root ${project.path}/absent does not exist: pass an existing directory to confine the tools to.`,
    );
    expect(() => resolveRoot(`${project.path}/project-file.txt`, "--root")).toThrow(
      /is not a directory/,
    );
  });

  it("serves a client over any transport and reports its tools and root", async () => {
    const { agentool, client } = await connect({ root: project.path, families: ["core", "fs"] });
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(agentool.toolNames);
      expect(names).toContain("read_file");
      expect(agentool.root).toBe(resolveRoot(project.path, "--root"));
    } finally {
      await agentool.dispose();
    }
  });

  it("lists output schemas only with outputSchemas, and returns structuredContent either way", async () => {
    for (const outputSchemas of [false, true]) {
      const { agentool, client } = await connect({
        root: project.path,
        families: ["core", "fs"],
        ...(outputSchemas ? { outputSchemas } : {}),
      });
      try {
        const listed = await client.listTools();
        const countWords = listed.tools.find((tool) => tool.name === "count_words");
        expect(countWords?.outputSchema === undefined, String(outputSchemas)).toBe(!outputSchemas);
        const called = (await client.callTool({
          name: "count_words",
          arguments: { path: "project-file.txt" },
        })) as CallToolResult;
        expect(called.isError, JSON.stringify(called.content)).not.toBe(true);
        expect(called.structuredContent).toMatchObject({ words: 1 });
      } finally {
        await agentool.dispose();
      }
    }
  });

  it("takes the client's root before its first request and logs the change", async () => {
    const { agentool, client, lines } = await connect({ root: project.path, families: ["fs"] }, [
      other.path,
    ]);
    try {
      const listing = (await client.callTool({
        name: "list_directory",
        arguments: { path: "." },
      })) as CallToolResult;
      expect(JSON.stringify(listing.content)).toContain("other-file.txt");
      expect(agentool.root).toBe(resolveRoot(other.path, "root"));
      expect(lines.join("\n")).toContain("fs and git confined to the client's root");
    } finally {
      await agentool.dispose();
    }
  });

  it("dispose closes the connection", async () => {
    const { agentool, client } = await connect({ families: ["core"] });
    let closed = false;
    client.onclose = () => {
      closed = true;
    };
    await agentool.dispose();
    expect(closed).toBe(true);
    await expect(client.listTools()).rejects.toThrow();
  });
});
