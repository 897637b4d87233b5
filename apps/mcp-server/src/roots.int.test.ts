import { spawn } from "node:child_process";
import { pathToFileURL } from "node:url";
import {
  type CallToolResult,
  ListRootsRequestSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CLI_PATH,
  initializeRepository,
  PACKAGE_DIRECTORY,
  requireBuiltCli,
  startStdioSession,
  temporaryDirectory,
} from "./test-support/spawn-server.js";
import { resultText as text } from "./test-support/tool-results.js";

let first: ReturnType<typeof temporaryDirectory>;
let second: ReturnType<typeof temporaryDirectory>;
let fallback: ReturnType<typeof temporaryDirectory>;

beforeAll(() => {
  requireBuiltCli();
  first = temporaryDirectory({ "alpha-only.txt": "in the first root\n" });
  second = temporaryDirectory({ "beta-only.txt": "in the second root\n" });
  initializeRepository(second.path);
  fallback = temporaryDirectory({ "fallback-only.txt": "in --root\n" });
});

afterAll(() => {
  for (const directory of [first, second, fallback]) directory?.cleanup();
});

/** A client with the roots capability whose roots the test changes. */
async function rootsSession(args: string[], initial: string[]) {
  let roots = initial.map((path) => ({ uri: pathToFileURL(path).href, name: path }));
  let listChanged = 0;
  const session = await startStdioSession(args, {
    capabilities: { roots: { listChanged: true } },
    setup: (client) => {
      client.setRequestHandler(ListRootsRequestSchema, () => ({ roots }));
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        listChanged += 1;
      });
    },
  });
  return {
    session,
    listChanged: () => listChanged,
    async setRoots(paths: string[]) {
      roots = paths.map((path) => ({ uri: pathToFileURL(path).href, name: path }));
      await session.client.sendRootsListChanged();
    },
  };
}

describe("MCP roots", () => {
  it("confines fs to the client's first root and follows a roots change without a restart", async () => {
    const { session, setRoots, listChanged } = await rootsSession(
      ["--root", fallback.path, "--families", "fs,git"],
      [first.path],
    );
    try {
      const before = await session.client.callTool({
        name: "list_directory",
        arguments: { path: "." },
      });
      expect(text(before)).toContain("alpha-only.txt");
      expect(text(before)).not.toContain("fallback-only.txt");
      // The first root is no repository: git is left out.
      let names = (await session.client.listTools()).tools.map((tool) => tool.name);
      expect(names).not.toContain("git_status");

      await setRoots([second.path]);
      const after = await session.client.callTool({
        name: "list_directory",
        arguments: { path: "." },
      });
      expect(text(after)).toContain("beta-only.txt");
      expect(text(after)).not.toContain("alpha-only.txt");
      // The second root is a repository: git joins, confined to it.
      names = (await session.client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain("git_status");
      const status = await session.client.callTool({ name: "git_status", arguments: {} });
      expect((status as CallToolResult).isError ?? false).toBe(false);
      expect(listChanged()).toBeGreaterThanOrEqual(1);
      await session.waitForStderr(`fs and git confined to the client's root`);
      // The old root is out of reach now.
      const oldRoot = await session.client.callTool({
        name: "read_file",
        arguments: { path: "alpha-only.txt" },
      });
      expect((oldRoot as CallToolResult).isError).toBe(true);
    } finally {
      await session.close();
    }
  });

  it("serves only the first of several roots and names the others on stderr", async () => {
    const { session } = await rootsSession(["--families", "fs"], [first.path, second.path]);
    try {
      const listing = await session.client.callTool({
        name: "list_directory",
        arguments: { path: "." },
      });
      expect(text(listing)).toContain("alpha-only.txt");
      await session.waitForStderr("only the first is served");
      await session.waitForStderr(pathToFileURL(second.path).href);
    } finally {
      await session.close();
    }
  });

  it("ignores client roots with --fixed-root", async () => {
    const { session } = await rootsSession(
      ["--root", fallback.path, "--fixed-root", "--families", "fs"],
      [first.path],
    );
    try {
      const listing = await session.client.callTool({
        name: "list_directory",
        arguments: { path: "." },
      });
      expect(text(listing)).toContain("fallback-only.txt");
    } finally {
      await session.close();
    }
  });

  it("falls back to --root when the client sends no roots, and leaves fs out without either", async () => {
    const withRoot = await rootsSession(["--root", fallback.path, "--families", "fs"], []);
    try {
      const listing = await withRoot.session.client.callTool({
        name: "list_directory",
        arguments: { path: "." },
      });
      expect(text(listing)).toContain("fallback-only.txt");
      // The log line and the answer come on different pipes: wait for the line, not a race.
      await withRoot.session.waitForStderr("the client sent no file:// root: using --root");
    } finally {
      await withRoot.session.close();
    }
    const without = await rootsSession(["--families", "core,fs"], []);
    try {
      const names = (await without.session.client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(["think", "update_plan"]);
      await without.session.waitForStderr(
        "the client sent no file:// root and there is no --root: fs and git left out.",
      );
    } finally {
      await without.session.close();
    }
  });

  it("leaves fs out with a clear line when the client's root is not a directory", async () => {
    const { session } = await rootsSession(
      ["--families", "core,fs"],
      [`${first.path}/alpha-only.txt`],
    );
    try {
      const names = (await session.client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(["think", "update_plan"]);
      await session.waitForStderr(
        `the client's root ${first.path}/alpha-only.txt is not a directory`,
      );
    } finally {
      await session.close();
    }
  });

  it("asks for the roots before answering a client that sends initialize, initialized and a request in one write", async () => {
    const child = spawn(process.execPath, [CLI_PATH, "--families", "fs"], {
      cwd: PACKAGE_DIRECTORY,
      stdio: ["pipe", "pipe", "ignore"],
    });
    const seen: { id?: number; method?: string; result?: { tools?: { name: string }[] } }[] = [];
    let buffer = "";
    const listed = new Promise<string[]>((resolve) => {
      child.stdout.on("data", (chunk: Buffer) => {
        buffer += chunk.toString("utf8");
        let newline = buffer.indexOf("\n");
        while (newline >= 0) {
          const message = JSON.parse(buffer.slice(0, newline));
          buffer = buffer.slice(newline + 1);
          newline = buffer.indexOf("\n");
          seen.push(message);
          if (message.method === "roots/list") {
            child.stdin.write(
              `${JSON.stringify({ jsonrpc: "2.0", id: message.id, result: { roots: [{ uri: pathToFileURL(first.path).href }] } })}\n`,
            );
          }
          if (message.id === 2 && message.result !== undefined) {
            resolve(message.result.tools.map((tool: { name: string }) => tool.name));
          }
        }
      });
    });
    child.stdin.write(
      [
        {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: "2025-06-18",
            capabilities: { roots: {} },
            clientInfo: { name: "pipelined", version: "1.0.0" },
          },
        },
        { jsonrpc: "2.0", method: "notifications/initialized" },
        { jsonrpc: "2.0", id: 2, method: "tools/list" },
      ]
        .map((message) => `${JSON.stringify(message)}\n`)
        .join(""),
    );
    try {
      const names = await listed;
      expect(names).toContain("list_directory");
      const rootsAt = seen.findIndex((message) => message.method === "roots/list");
      const listAt = seen.findIndex((message) => message.id === 2 && message.result !== undefined);
      expect(rootsAt).toBeGreaterThanOrEqual(0);
      expect(rootsAt).toBeLessThan(listAt);
    } finally {
      child.stdin.end();
      await new Promise((resolve) => child.once("exit", resolve));
    }
  });
});
