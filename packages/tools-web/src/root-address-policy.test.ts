import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { createWebTools } from "./create-web-tools.js";
import { UNGUARDED_NODE_WARNING } from "./internal/options.js";
import { startServer } from "./test-support/http-server.js";
import { createWebFetchTool } from "./web-fetch.js";

let hits = 0;
const local = await startServer({
  "/": (_request, response) => {
    hits += 1;
    response.writeHead(200, { "content-type": "text/plain" });
    response.end("SECRET LOOPBACK PAGE");
  },
});
const port = local.port;
const hop = await startServer({
  "/to-loopback": (_request, response) => {
    response.writeHead(302, { location: `http://127.0.0.1:${port}/` });
    response.end();
  },
  "/to-localhost": (_request, response) => {
    response.writeHead(307, { location: `http://localhost:${port}/` });
    response.end();
  },
  "/to-metadata": (_request, response) => {
    response.writeHead(301, { location: "http://169.254.169.254/latest/meta-data/" });
    response.end();
  },
});

function rootFetch(options: Parameters<typeof createWebFetchTool>[0] = {}) {
  const [tool] = createWebTools({
    wiki: false,
    fetch: { cacheTtlMs: 0, onWarn: () => {}, ...options },
  });
  if (tool === undefined) throw new Error("no web_fetch");
  return tool;
}

async function expectBlocked(url: string, options: Parameters<typeof createWebFetchTool>[0] = {}) {
  const before = hits;
  const result = await rootFetch(options).run({ url });
  expect(result.success, `${url} must be refused`).toBe(false);
  if (!result.success) expect(result.error.code, result.error.message).toBe("BLOCKED");
  expect(hits, `${url} must never reach the server`).toBe(before);
}

describe("the runtime-neutral web_fetch refuses private literals and localhost", () => {
  for (const url of [
    `http://127.0.0.1:${port}/`,
    `http://2130706433:${port}/`,
    `http://0x7f.0.0.1:${port}/`,
    `http://127.1:${port}/`,
    `http://[::ffff:127.0.0.1]:${port}/`,
    `http://[::127.0.0.1]:${port}/`, // IPv4-compatible: the URL parser writes [::7f00:1]
    `http://[::7f00:1]:${port}/`,
    `http://[64:ff9b::127.0.0.1]:${port}/`,
    `http://[2002:7f00:1::]:${port}/`,
    `http://[::1]:${port}/`,
    `http://0.0.0.0:${port}/`,
    `http://localhost:${port}/`,
    `http://LOCALHOST.:${port}/`,
    `http://app.localhost:${port}/`,
    "http://169.254.169.254/latest/meta-data/",
    "http://168.63.129.16/machine",
    "http://metadata.google.internal/",
    "http://metadata.tencentyun.com/",
    "http://10.0.0.1/",
    "http://192.168.1.1/",
  ]) {
    it(`refuses ${url}`, async () => {
      await expectBlocked(url);
    });
  }

  it("reports a refused URL as the exact BLOCKED envelope (code, message, hint, not retryable)", async () => {
    const result = await rootFetch().run({ url: `http://127.0.0.1:${port}/` });
    expect(result).toStrictEqual({
      success: false,
      error: {
        code: "BLOCKED",
        message: `127.0.0.1:${port} is not reachable: 127.0.0.1 is a loopback address.`,
        hint: "Only public internet addresses can be fetched. If the user needs a local or internal service, the host must allow it (allowHosts or allowPrivate).",
        retryable: false,
      },
    });
  });

  it("checks every redirect hop (manual redirects)", async () => {
    const allowHop = { allowHosts: [`127.0.0.1:${hop.port}`] };
    await expectBlocked(`${hop.origin}/to-loopback`, allowHop);
    await expectBlocked(`${hop.origin}/to-localhost`, allowHop);
    await expectBlocked(`${hop.origin}/to-metadata`, allowHop);
  });

  it("allowHosts and allowPrivate open it, metadata stays shut", async () => {
    const allowed = await rootFetch({ allowHosts: [`127.0.0.1:${port}`] }).run({
      url: `${local.origin}/`,
    });
    expect(allowed.success && allowed.data.content).toBe("SECRET LOOPBACK PAGE");
    const open = rootFetch({ allowPrivate: true });
    expect((await open.run({ url: `http://localhost:${port}/` })).success).toBe(true);
    const metadata = await open.run({ url: "http://169.254.170.23/v1/credentials" });
    expect(!metadata.success && metadata.error.code).toBe("BLOCKED");
  });

  it("a host transport is the host's policy: nothing is checked by the tool", async () => {
    const seen: string[] = [];
    const tool = createWebFetchTool({
      transport: async (request) => {
        seen.push(request.url);
        return {
          status: 200,
          url: request.url,
          headers: { "content-type": "text/plain" },
          body: new TextEncoder().encode("ok"),
          truncated: false,
        };
      },
    });
    expect((await tool.run({ url: "http://127.0.0.1/" })).success).toBe(true);
    expect(seen).toEqual(["http://127.0.0.1/"]);
  });
});

describe("the warning on Node", () => {
  it("names the Node entry, once per tool through onWarn; never with a transport or forward", () => {
    const messages: string[] = [];
    const onWarn = (message: string) => messages.push(message);
    createWebFetchTool({ onWarn });
    expect(messages).toEqual([UNGUARDED_NODE_WARNING]);
    expect(messages[0]).toContain("createNodeWebFetchTool");
    createWebFetchTool({ onWarn, forward: "https://proxy.example/?u={urlEncoded}" });
    createWebFetchTool({
      onWarn,
      transport: async () => ({
        status: 204,
        url: "",
        headers: {},
        body: new Uint8Array(),
        truncated: false,
      }),
    });
    expect(messages).toHaveLength(1);
  });

  it("without onWarn, console.warn is told once per process", async () => {
    const original = console.warn;
    const told: unknown[] = [];
    console.warn = (...args: unknown[]) => {
      told.push(args[0]);
    };
    try {
      // A fresh copy of the module, so the once-flag starts unset.
      vi.resetModules();
      const fresh = await import("./internal/options.js");
      fresh.warnUnguardedOnNode(undefined);
      fresh.warnUnguardedOnNode(undefined);
      expect(told).toEqual([UNGUARDED_NODE_WARNING]);
    } finally {
      console.warn = original;
    }
  });
});

describe("the root entry stays runtime-neutral", () => {
  it("no module reachable from src/index.ts imports node: or undici", () => {
    const source = dirname(fileURLToPath(import.meta.url));
    const pattern =
      /(?:import|export)\s*(?:[^'"]*?\sfrom\s*)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;
    const queue = [resolve(source, "index.ts")];
    const seen = new Set<string>();
    const bare = new Set<string>();
    while (queue.length > 0) {
      const file = queue.pop() as string;
      if (seen.has(file)) continue;
      seen.add(file);
      for (const match of readFileSync(file, "utf8").matchAll(pattern)) {
        const specifier = match[1] ?? match[2] ?? "";
        if (specifier.startsWith("."))
          queue.push(resolve(dirname(file), specifier.replace(/\.js$/, ".ts")));
        else bare.add(specifier);
      }
    }
    expect(seen.has(resolve(source, "internal/address-policy.ts"))).toBe(true);
    expect(
      [...bare].filter((specifier) => specifier.startsWith("node:") || specifier === "undici"),
    ).toEqual([]);
  });
});
