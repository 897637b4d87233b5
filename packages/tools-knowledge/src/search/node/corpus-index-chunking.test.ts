import { readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  createSearchKnowledgeTool,
  type SearchKnowledgeHit,
  type SearchKnowledgeToolData,
} from "../search-knowledge.js";
import { createCorpusSource } from "./index.js";
import { useCorpusFolders } from "./test-support/corpus-folders.js";

const { write, corpusOf } = useCorpusFolders("agentool-corpus-chunking-");

function toolOver(root: string, maxExcerptCharacters = 10_000) {
  return createSearchKnowledgeTool({ source: createCorpusSource({ root }), maxExcerptCharacters });
}

async function searchData(
  tool: ReturnType<typeof createSearchKnowledgeTool>,
  input: Record<string, unknown>,
): Promise<SearchKnowledgeToolData> {
  const result = await tool.run(input);
  if (!result.success) throw new Error(`search failed: ${JSON.stringify(result)}`);
  return result.data;
}

async function topHit(
  tool: ReturnType<typeof createSearchKnowledgeTool>,
  query: string,
): Promise<SearchKnowledgeHit> {
  const data = await searchData(tool, { query });
  const hit = data.hits[0];
  if (hit === undefined) throw new Error(`no hit for ${query}: ${JSON.stringify(data)}`);
  return hit;
}

/** Lines `start`…`end` of a file as `read_file` numbers them (split on `\n`, a `\r` before it dropped). */
function linesOf(root: string, file: string, start: number, end: number): string {
  return readFileSync(join(root, file), "utf8")
    .replace(/^\uFEFF/, "")
    .split("\n")
    .map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line))
    .slice(start - 1, end)
    .join("\n");
}

describe("chunking edge cases, seen through the corpus index", () => {
  it("puts ATX and Setext headings in the heading trail", async () => {
    const text = [
      "Handbook",
      "========",
      "",
      "Intro words.",
      "",
      "Safety",
      "------",
      "",
      "### Gloves",
      "",
      "Wear nitrile gloves when handling solvents.",
      "",
    ].join("\n");
    const root = corpusOf({ "handbook.md": text });
    const hit = await topHit(toolOver(root), "nitrile gloves");
    expect(hit.heading_trail).toEqual(["Handbook", "Safety", "Gloves"]);
    expect(hit.excerpt).toContain("Wear nitrile gloves");
    expect(linesOf(root, hit.file, hit.start_line, hit.end_line)).toBe(hit.excerpt);
  });

  it("never takes a heading from inside a code fence", async () => {
    const text = [
      "# Scripts",
      "",
      "```bash",
      "# Fenced comment about rsync",
      "rsync -av src/ dst/",
      "```",
      "",
      "More about rsync after the fence.",
      "",
    ].join("\n");
    const root = corpusOf({ "scripts.md": text });
    const data = await searchData(toolOver(root), { query: "rsync" });
    expect(data.hits.length).toBeGreaterThan(0);
    for (const hit of data.hits) {
      expect(hit.heading_trail).toEqual(["Scripts"]);
      expect(hit.heading_trail).not.toContain("Fenced comment about rsync");
    }
    const fenced = data.hits.find((hit) => hit.excerpt.includes("```bash"));
    expect(fenced?.excerpt).toContain(
      "```bash\n# Fenced comment about rsync\nrsync -av src/ dst/\n```",
    );
  });

  it("makes front matter searchable without showing it as body", async () => {
    const text = [
      "---",
      "title: Onboarding",
      "tags: [kumquat, welcome]",
      "---",
      "# First day",
      "",
      "Pick up your badge at reception.",
      "",
    ].join("\n");
    const root = corpusOf({ "onboarding.md": text, "other.md": "# Other\n\nNothing related.\n" });
    const tool = toolOver(root);
    const hit = await topHit(tool, "kumquat");
    expect(hit.file).toBe("onboarding.md");
    expect(hit.start_line).toBe(5);
    expect(hit.excerpt).not.toContain("kumquat");
    expect(hit.excerpt).not.toContain("---");
    expect(hit.excerpt).toContain("Pick up your badge");
    expect(linesOf(root, hit.file, hit.start_line, hit.end_line)).toBe(hit.excerpt);
  });

  it("finds words in tables and cites the table's lines", async () => {
    const text = [
      "# Limits",
      "",
      "| Resource | Limit |",
      "|----------|------:|",
      "| sockets  | 1024  |",
      "| inodes   | 65536 |",
      "",
    ].join("\n");
    const root = corpusOf({ "limits.md": text });
    const hit = await topHit(toolOver(root), "inodes");
    expect(hit.excerpt).toContain("| inodes   | 65536 |");
    expect(hit.start_line).toBeLessThanOrEqual(3);
    expect(hit.end_line).toBeGreaterThanOrEqual(6);
    expect(linesOf(root, hit.file, hit.start_line, hit.end_line)).toBe(hit.excerpt);
  });

  it("numbers the lines of a CRLF file as read_file does, with no \\r in excerpts", async () => {
    const text = [
      "# Windows notes",
      "",
      "First paragraph.",
      "",
      "## Registry",
      "",
      "Edit the registry with regedit carefully.",
      "",
    ].join("\r\n");
    const root = corpusOf({ "windows.md": text });
    const hit = await topHit(toolOver(root), "regedit");
    expect(hit).toMatchObject({ start_line: 5, end_line: 7 });
    expect(hit.excerpt).toBe("## Registry\n\nEdit the registry with regedit carefully.");
    expect(hit.excerpt).not.toContain("\r");
  });

  it("keeps excerpts on the chunker's lines when a file holds a lone \\r", async () => {
    // read_file and the chunker split on \n only: a lone \r is part of its line.
    const text = "# Odd\n\nalpha\rbeta\n\n## Later\n\nThe walrus appears.\n";
    const root = corpusOf({ "odd.md": text });
    const hit = await topHit(toolOver(root), "walrus");
    expect(hit).toMatchObject({ start_line: 5, end_line: 7 });
    expect(hit.excerpt).toBe("## Later\n\nThe walrus appears.");
  });

  it("ignores a byte-order mark for line numbers", async () => {
    const root = corpusOf({ "bom.md": "\uFEFF# Title\n\nThe porcupine line.\n" });
    const hit = await topHit(toolOver(root), "porcupine");
    expect(hit).toMatchObject({ start_line: 1, end_line: 3, heading_trail: ["Title"] });
    expect(hit.excerpt).toBe("# Title\n\nThe porcupine line.");
  });

  it("finds CJK text with a CJK query", async () => {
    const root = corpusOf({
      "ja.md": "# データベース\n\n正規化はデータの重複を減らします。東京都の天気は晴れです。\n",
      "zh.md": "# 数据库\n\n索引可以加快查询速度。\n",
      "en.md": "# English\n\nNothing in Japanese here.\n",
    });
    const tool = toolOver(root);
    expect((await topHit(tool, "東京")).file).toBe("ja.md");
    expect((await topHit(tool, "重複")).file).toBe("ja.md");
    const chinese = await topHit(tool, "查询速度");
    expect(chinese.file).toBe("zh.md");
    expect(chinese.heading_trail).toEqual(["数据库"]);
  });

  it("splits a very long line and shows the piece that matched", async () => {
    const words = Array.from({ length: 6000 }, (_, index) => `word${index % 50}`);
    words[5500] = "ocelot";
    const line = words.join(" ");
    expect(line.length).toBeGreaterThan(30_000);
    const root = corpusOf({ "long.md": `# Long\n\n${line}\n\nTail paragraph.\n` });
    for (const window of [0, 1]) {
      const tool = createSearchKnowledgeTool({
        source: createCorpusSource({ root, window }),
        maxExcerptCharacters: 2000,
      });
      const hit = await topHit(tool, "ocelot");
      expect(hit).toMatchObject({ file: "long.md", start_line: 3, end_line: 3 });
      expect(hit.excerpt_truncated).toBe(false);
      expect(hit.excerpt.length).toBeLessThanOrEqual(1500);
      expect(hit.excerpt).toContain("ocelot");
      expect(line).toContain(hit.excerpt);
      expect((await topHit(tool, "tail paragraph")).start_line).toBe(5);
    }
  });

  it("shows the matching piece of a long line without spaces (CJK)", async () => {
    const line = `${"日本語の文章です。".repeat(400)}最後に富士山が見えます。`;
    const root = corpusOf({ "cjk-long.md": `    ${line}\n` });
    const tool = createSearchKnowledgeTool({
      source: createCorpusSource({ root }),
      maxExcerptCharacters: 2000,
    });
    const hit = await topHit(tool, "富士山");
    expect(hit).toMatchObject({ start_line: 1, end_line: 1 });
    expect(hit.excerpt).toContain("富士山");
    expect(hit.excerpt.length).toBeLessThanOrEqual(1500);
    expect(`    ${line}`).toContain(hit.excerpt);
  });

  it("indexes empty files as nothing and keeps searching the others", async () => {
    const root = corpusOf({
      "empty.md": "",
      "blank.txt": "\n\n  \n",
      "full.md": "# Full\n\nA heron.\n",
    });
    const data = await searchData(toolOver(root), { query: "heron" });
    expect(data.hits.map((hit) => hit.file)).toEqual(["full.md"]);
    expect(data.searched.chunks).toBe(1);
  });

  it("skips a binary file with a Markdown name, with a warning, once", async () => {
    const binary = Buffer.concat([
      Buffer.from("# Looks like markdown badger\n"),
      Buffer.from([0, 1, 2, 0xff, 0xfe, 0]),
    ]);
    const root = corpusOf({ "image.md": binary, "text.md": "# Text\n\nThe badger digs.\n" });
    const warnings: string[] = [];
    const source = createCorpusSource({ root, onWarn: (message) => warnings.push(message) });
    const tool = createSearchKnowledgeTool({ source });
    const data = await searchData(tool, { query: "badger" });
    expect(data.hits.map((hit) => hit.file)).toEqual(["text.md"]);
    expect(data.warnings).toEqual([expect.stringContaining("skipped as binary: image.md")]);
    expect(warnings).toEqual(data.warnings);
    // Known as binary by size and time: not read nor warned about again.
    const again = await searchData(tool, { query: "badger" });
    expect(again.warnings).toEqual([]);
    await source.flush(); // the first search's sidecar write (it follows the answer)
    expect(await source.refresh()).toMatchObject({ files: 1, saved: false });
    // Also across a restart (the sidecar remembers it).
    const restarted = createCorpusSource({ root });
    expect(await restarted.refresh()).toMatchObject({
      files: 1,
      added: 0,
      warnings: [],
      saved: false,
    });
  });

  it("skips hidden folders, hidden files and node_modules", async () => {
    const root = corpusOf({
      "visible.md": "# Visible\n\nThe marmot.\n",
      ".hidden/secret-notes.md": "# Hidden\n\nThe marmot hides.\n",
      ".dotfile.md": "# Dot\n\nThe marmot dots.\n",
      "node_modules/pkg/README.md": "# Package\n\nThe marmot package.\n",
      "deep/node_modules/x.md": "# Nested\n\nThe marmot nests.\n",
      "deep/kept.md": "# Kept\n\nThe marmot stays.\n",
    });
    const data = await searchData(toolOver(root), { query: "marmot" });
    expect(data.hits.map((hit) => hit.file).sort()).toEqual(["deep/kept.md", "visible.md"]);
  });

  it("only indexes the configured extensions", async () => {
    const root = corpusOf({
      "a.md": "# A\n\nPelican.\n",
      "b.TXT": "Pelican text.\n",
      "c.rst": "Pelican\n=======\n\nrst body.\n",
      "d.json": '{"pelican": true}\n',
      "e.html": "<p>pelican</p>\n",
    });
    const files = (await searchData(toolOver(root), { query: "pelican" })).hits.map(
      (hit) => hit.file,
    );
    expect(files.sort()).toEqual(["a.md", "b.TXT", "c.rst"]);
    const textOnly = createSearchKnowledgeTool({
      source: createCorpusSource({ root, extensions: [".txt"] }),
    });
    expect((await searchData(textOnly, { query: "pelican" })).hits.map((hit) => hit.file)).toEqual([
      "b.TXT",
    ]);
  });

  it("follows a symlink inside the root but never one pointing outside it", async () => {
    const outside = corpusOf({ "secret.md": "# Outside\n\nThe narwhal lives outside.\n" });
    const root = corpusOf({
      "real/inside.md": "# Inside\n\nThe narwhal lives inside.\n",
    });
    symlinkSync(join(outside, "secret.md"), join(root, "escape.md"));
    symlinkSync(outside, join(root, "escape-folder"));
    symlinkSync(join(root, "real"), join(root, "alias"));
    const files = (await searchData(toolOver(root), { query: "narwhal" })).hits.map(
      (hit) => hit.file,
    );
    expect(files).not.toContain("escape.md");
    expect(files.some((file) => file.startsWith("escape-folder/"))).toBe(false);
    // The linked folder is walked once, under its own path whatever readdir's order.
    expect(files).toEqual(["real/inside.md"]);
  });

  it("skips secret paths (id_rsa*, *.env…) even with an indexed extension", async () => {
    const root = corpusOf({
      "id_rsa.md": "-----BEGIN OPENSSH PRIVATE KEY-----\nwombat\n",
      "keys/id_ed25519.txt": "wombat key\n",
      "prod.env/notes.md": "# Env\n\nwombat in an env folder.\n",
      "notes.md": "# Notes\n\nThe wombat sleeps.\n",
    });
    const files = (await searchData(toolOver(root), { query: "wombat" })).hits.map(
      (hit) => hit.file,
    );
    expect(files).toEqual(["notes.md"]);
  });

  it("skips files above maxFileBytes with a warning", async () => {
    const root = corpusOf({
      "big.md": `# Big\n\n${"The yak grazes. ".repeat(200)}\n`,
      "small.md": "# Small\n\nThe yak.\n",
    });
    const tool = createSearchKnowledgeTool({
      source: createCorpusSource({ root, maxFileBytes: 1000 }),
    });
    const data = await searchData(tool, { query: "yak" });
    expect(data.hits.map((hit) => hit.file)).toEqual(["small.md"]);
    expect(data.warnings).toEqual([expect.stringContaining("1 file is larger than 1,000 bytes")]);
    // Named once, like a binary file: the next searches do not repeat it…
    expect((await searchData(tool, { query: "yak" })).warnings).toEqual([]);
    // …until another file (or a new version of it) is too large.
    write(root, "big.md", `# Big\n\n${"The yak grazes more. ".repeat(200)}\n`);
    expect((await searchData(tool, { query: "yak" })).warnings).toEqual([
      expect.stringContaining("1 file is larger than 1,000 bytes"),
    ]);
  });
});
