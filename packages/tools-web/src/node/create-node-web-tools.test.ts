import { mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { selectTools } from "@agentool/contract";
import { assertConformance } from "@agentool/contract/testing";
import { afterAll, describe, expect, it } from "vitest";
import { startPagesServer } from "../test-support/pages-server.js";
import { createWebFetchTool } from "../web-fetch.js";
import { createNodeWebFetchTool, createNodeWebTools } from "./create-node-web-tools.js";
import { savedFileName } from "./directory-saver.js";

const pages = await startPagesServer();
const directories: string[] = [];
afterAll(async () => {
  await Promise.all(
    directories.map((directory) => rm(directory, { recursive: true, force: true })),
  );
});
async function temporaryDirectory(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), "agentool-web-"));
  directories.push(directory);
  return directory;
}

describe("saving to saveDir", () => {
  it("writes Markdown with url/title/fetched front matter and returns the relative file name", async () => {
    const saveDir = await temporaryDirectory();
    const tool = createNodeWebFetchTool({
      allowHosts: ["127.0.0.1"],
      saveDir,
      now: () => new Date("2025-06-01T10:00:00Z"),
    });
    const result = await tool.run({ url: `${pages.origin}/article` });
    expect(result.success).toBe(true);
    if (!result.success) return;
    const name = `127.0.0.1-${pages.port}-article.md`;
    expect(result.data.saved_as).toBe(name);
    expect(tool.renderResult(result)).toContain(`Saved as: ${name}`);
    const saved = await readFile(join(saveDir, name), "utf8");
    expect(saved).toMatch(
      new RegExp(
        `^---\\nurl: "${pages.origin}/article"\\ntitle: "Tides & Moons — Ocean Notes"\\nfetched: 2025-06-01T10:00:00.000Z\\ntype: html\\n---\\n\\n`,
      ),
    );
    expect(saved).toContain("# How the Moon drives the tides");
    expect(await readdir(saveDir)).toEqual([name]);
  });

  it("re-fetching a URL refreshes its file", async () => {
    const saveDir = await temporaryDirectory();
    let clock = new Date("2025-01-01T00:00:00Z");
    const tool = createNodeWebFetchTool({
      allowHosts: ["127.0.0.1"],
      saveDir,
      cacheTtlMs: 0,
      now: () => clock,
    });
    await tool.run({ url: `${pages.origin}/notes.txt` });
    clock = new Date("2025-02-02T00:00:00Z");
    const again = await tool.run({ url: `${pages.origin}/notes.txt` });
    const name = again.success ? (again.data.saved_as ?? "") : "";
    expect(await readdir(saveDir)).toEqual([name]);
    expect(await readFile(join(saveDir, name), "utf8")).toContain(
      "fetched: 2025-02-02T00:00:00.000Z",
    );
  });

  it("saveDir can be a function of the call context (per-thread folders)", async () => {
    const root = await temporaryDirectory();
    const tool = createNodeWebFetchTool({
      allowHosts: ["127.0.0.1"],
      saveDir: (context) => join(root, context.threadId ?? "default"),
    });
    const result = await tool.run({ url: `${pages.origin}/data.json` }, { threadId: "thread-7" });
    expect(result.success && result.data.saved_as).toBe(`127.0.0.1-${pages.port}-data.json.md`);
    // The saver created the folder, so it also holds the ignore files keeping the pages out of git.
    expect((await readdir(join(root, "thread-7"))).sort()).toEqual([
      ".gitignore",
      ".ignore",
      `127.0.0.1-${pages.port}-data.json.md`,
    ]);
  });

  it("a failing save still returns the content and says why it was not saved", async () => {
    const root = await temporaryDirectory();
    const tool = createNodeWebFetchTool({
      allowHosts: ["127.0.0.1"],
      saveDir: join(root, "\0bad"),
    });
    const result = await tool.run({ url: `${pages.origin}/notes.txt` });
    expect(result.success && result.data.save_error).toBeTruthy();
    expect(tool.renderResult(result)).toContain("Not saved:");
  });

  it("saving makes web_fetch a writing tool (readOnly false, destructive false, tag web:save); without saving it stays read-only", async () => {
    const saveDir = await temporaryDirectory();
    const saving = [
      createNodeWebFetchTool({ saveDir }),
      createWebFetchTool({ save: () => "saved.md", onWarn: () => {} }),
    ];
    for (const tool of saving) {
      expect(tool.annotations).toMatchObject({ readOnly: false, destructive: false });
      expect(tool.tags).toContain("web:save");
    }
    const reading = [createNodeWebFetchTool(), createWebFetchTool({ onWarn: () => {} })];
    for (const tool of reading) {
      expect(tool.annotations).toMatchObject({ readOnly: true });
      expect(tool.annotations.destructive).not.toBe(true);
      expect(tool.tags).not.toContain("web:save");
    }
    // A host's read-only allow-list keeps only the tools that do not write.
    expect(selectTools([...saving, ...reading], { readOnly: true })).toEqual(reading);
  });

  it("never replaces a file in saveDir that is not its saved copy of the same URL", async () => {
    const saveDir = await temporaryDirectory();
    const tool = createNodeWebFetchTool({ allowHosts: ["127.0.0.1"], saveDir, cacheTtlMs: 0 });
    const url = `${pages.origin}/notes.txt`;
    const name = savedFileName(url);
    await writeFile(join(saveDir, name), "my own notes, not a fetched page\n");
    const result = await tool.run({ url });
    expect(result.success && result.data.content.length).toBeGreaterThan(0);
    expect(result.success && result.data.saved_as).toBeUndefined();
    expect(result.success && result.data.save_error).toMatch(/not a saved copy of .*not replaced/);
    expect(await readFile(join(saveDir, name), "utf8")).toBe("my own notes, not a fetched page\n");
    // A saved copy of another URL under the same name (a case-folding file system) is not one.
    await writeFile(join(saveDir, name), '---\nurl: "https://elsewhere.example/"\n---\n\nkeep\n');
    const other = await tool.run({ url });
    expect(other.success && other.data.save_error).toMatch(/not replaced/);
    expect(await readFile(join(saveDir, name), "utf8")).toContain("keep");
    // A symbolic link at the name is not replaced either, whatever it points to.
    const linked = savedFileName(`${pages.origin}/data.json`);
    await writeFile(join(saveDir, "target.md"), `---\nurl: "${pages.origin}/data.json"\n`);
    await symlink(join(saveDir, "target.md"), join(saveDir, linked));
    const viaLink = await tool.run({ url: `${pages.origin}/data.json` });
    expect(viaLink.success && viaLink.data.save_error).toMatch(/not replaced/);
    expect(await readdir(saveDir)).toEqual([name, linked, "target.md"].sort());
  });

  it("file names are stable, safe and bounded", () => {
    expect(savedFileName("https://example.com/docs/intro/")).toBe("example.com-docs-intro.md");
    expect(savedFileName("https://example.com/a?x=1")).toMatch(/^example\.com-a-[0-9a-f]{10}\.md$/);
    expect(savedFileName("https://example.com/../../etc/passwd")).toBe("example.com-etc-passwd.md");
    expect(savedFileName(`https://example.com/${"x".repeat(500)}`).length).toBeLessThanOrEqual(123);
  });
});

describe("createNodeWebTools", () => {
  it("wires wiki_search and the guarded web_fetch; false drops a tool; options are strict", async () => {
    const tools = createNodeWebTools({ fetch: { allowHosts: ["127.0.0.1"] } });
    expect(tools.map((tool) => tool.name)).toEqual(["wiki_search", "web_fetch"]);
    expect(createNodeWebTools({ wiki: false }).map((tool) => tool.name)).toEqual(["web_fetch"]);
    const blocked = await createNodeWebTools({ wiki: false })[0]?.run({
      url: `${pages.origin}/notes.txt`,
    });
    expect(blocked?.success === false && blocked.error.code).toBe("BLOCKED");
    expect(() => createNodeWebTools({ fetch: { allowHost: ["x"] } as never })).toThrow(/allowHost/);
    expect(() => createNodeWebTools({ browse: {} } as never)).toThrow(/browse/);
    expect(() => createNodeWebFetchTool({ maxRedirects: 99 })).toThrow(/maxRedirects/);
  });

  it("keeps the main content by default; readability: false converts the whole page", async () => {
    const tool = createNodeWebFetchTool({ allowHosts: ["127.0.0.1"] });
    const result = await tool.run({ url: `${pages.origin}/article` });
    expect(result.success && result.data.main_content).toBe(true);
    expect(result.success && result.data.content).not.toContain("SIDEBAR-ADVERT");
    const whole = createNodeWebFetchTool({ allowHosts: ["127.0.0.1"], readability: false });
    const page = await whole.run({ url: `${pages.origin}/article` });
    expect(page.success && page.data.content).toContain("SIDEBAR-ADVERT");
  });

  it("createNodeWebTools passes what it mounts into each description", () => {
    const [wiki, fetch] = createNodeWebTools();
    expect(wiki?.description).toContain("web_fetch");
    expect(wiki?.description).not.toContain("web_search");
    expect(fetch?.description).toContain("from wiki_search results");
    expect(fetch?.description).not.toContain("web_search");
  });

  it("conforms to the contract: a saved page, and a long page that pages (fixed clock, no cache)", async () => {
    const saveDir = await temporaryDirectory();
    // A local server that does not change: deterministic, once the cache is off (a cached
    // repeat says cached: true) and the clock fixed.
    const tool = createNodeWebFetchTool({
      allowHosts: ["127.0.0.1"],
      saveDir,
      cacheTtlMs: 0,
      now: () => new Date("2025-06-01T10:00:00Z"),
    });
    await assertConformance([tool], {
      samples: { web_fetch: { url: `${pages.origin}/article` } },
      cutSamples: { web_fetch: { url: `${pages.origin}/long.txt` } },
    });
  });
});
