// The cache serves the later pages of one page walk; a call for the first page (no offset, or
// offset 1) fetches afresh, so a re-fetch the model asks for sees the site as it is now and
// refreshes the saved copy. A local server whose content changes on every request, counted.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createNodeWebFetchTool } from "./node/create-node-web-tools.js";
import { startServer } from "./test-support/http-server.js";

let version = 0;
const server = await startServer({
  "/news": (_request, response) => {
    version += 1;
    response.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
    response.end(`Headline version ${version}\n`);
  },
  "/long": (_request, response) => {
    version += 1;
    const lines = Array.from({ length: 300 }, (_, index) => `v${version} line ${index + 1}`);
    response.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
    response.end(lines.join("\n"));
  },
});
const requestsTo = (path: string) =>
  server.requests.filter((request) => request.url === path).length;

const folders: string[] = [];
afterAll(async () => {
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
});

describe("web_fetch: a re-fetch refreshes, the cache serves one page walk", () => {
  it("a second call for the same URL goes to the network and returns the new content", async () => {
    const tool = createNodeWebFetchTool({ allowHosts: ["127.0.0.1"] });
    const before = requestsTo("/news");
    const first = await tool.run({ url: `${server.origin}/news` });
    const second = await tool.run({ url: `${server.origin}/news` });
    const third = await tool.run({ url: `${server.origin}/news`, offset: 1 });
    expect(requestsTo("/news") - before).toBe(3);
    expect(first.success && second.success && third.success).toBe(true);
    if (!first.success || !second.success || !third.success) return;
    expect(second.data.content).not.toBe(first.data.content);
    expect(third.data.content).not.toBe(second.data.content);
    expect([first.data.cached, second.data.cached, third.data.cached]).toEqual([
      false,
      false,
      false,
    ]);
  });

  it("the later pages of a walk come from the first page's copy, consistent even when the site changed", async () => {
    const tool = createNodeWebFetchTool({ allowHosts: ["127.0.0.1"] });
    const before = requestsTo("/long");
    const first = await tool.run({ url: `${server.origin}/long`, limit: 1_000 });
    if (!first.success) throw new Error(first.error.message);
    const walkVersion = /^v(\d+)/.exec(first.data.content)?.[1];
    let offset = first.data.next_offset;
    let joined = first.data.content;
    while (offset !== undefined) {
      const page = await tool.run({ url: `${server.origin}/long`, limit: 1_000, offset });
      if (!page.success) throw new Error(page.error.message);
      expect(page.data.cached).toBe(true);
      joined += page.data.content;
      offset = page.data.next_offset;
    }
    expect(requestsTo("/long") - before).toBe(1);
    expect(joined.split("\n").every((line) => line.startsWith(`v${walkVersion} `))).toBe(true);
    // A new walk starts with a fresh fetch.
    const again = await tool.run({ url: `${server.origin}/long`, limit: 1_000 });
    expect(requestsTo("/long") - before).toBe(2);
    expect(again.success && again.data.content.startsWith(`v${walkVersion} `)).toBe(false);
  });

  it("a later page whose copy expired fetches again", async () => {
    const tool = createNodeWebFetchTool({ allowHosts: ["127.0.0.1"], cacheTtlMs: 1 });
    const before = requestsTo("/long");
    await tool.run({ url: `${server.origin}/long`, limit: 1_000 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await tool.run({ url: `${server.origin}/long`, limit: 1_000, offset: 500 });
    expect(requestsTo("/long") - before).toBe(2);
  });

  it("a re-fetch rewrites the saved file with the new content", async () => {
    const saveDir = await mkdtemp(join(tmpdir(), "agentool-refresh-"));
    folders.push(saveDir);
    const tool = createNodeWebFetchTool({ allowHosts: ["127.0.0.1"], saveDir });
    const first = await tool.run({ url: `${server.origin}/news` });
    if (!first.success || first.data.saved_as === undefined) throw new Error("not saved");
    const savedFirst = await readFile(join(saveDir, first.data.saved_as), "utf8");
    const second = await tool.run({ url: `${server.origin}/news` });
    if (!second.success || second.data.saved_as === undefined) throw new Error("not saved");
    expect(second.data.saved_as).toBe(first.data.saved_as);
    const savedSecond = await readFile(join(saveDir, second.data.saved_as), "utf8");
    expect(savedFirst).toContain(first.data.content.trim());
    expect(savedSecond).toContain(second.data.content.trim());
    expect(savedSecond).not.toContain(first.data.content.trim());
  });
});
