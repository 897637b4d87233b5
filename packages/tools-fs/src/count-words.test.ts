import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { toOutputJsonSchema } from "@agentool/contract";
import { assertConformance } from "@agentool/contract/testing";
import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import {
  type CountWordsToolData,
  countWordsOutputSchema,
  createCountWordsTool,
} from "./count-words.js";
import { encodeText } from "./internal/text-codec.js";
import { createMemoryFileSystem } from "./memory-file-system.js";
import { createNodeFileSystem } from "./node/node-file-system.js";
import { createWorkspace, type Workspace } from "./workspace.js";

let root: string;
let workspace: Workspace;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "agentool-words-"));
  workspace = createWorkspace({ fileSystem: createNodeFileSystem({ root }) });
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("createCountWordsTool", () => {
  it("counts words, characters, paragraphs, headings and lines of Markdown", async () => {
    await writeFile(
      join(root, "essay.md"),
      "---\ntitle: Not counted\n---\n# Hello world\n\nThis is **one** [link](https://example.com/very/long).\n\nSecond paragraph here.\n",
    );
    const tool = createCountWordsTool({ workspace });
    const result = await tool.run({ path: "essay.md" });
    expect(result.success && result.data).toEqual({
      path: "essay.md",
      characters: "Helloworld".length + "Thisisonelink.".length + "Secondparagraphhere.".length,
      words: 2 + 4 + 3,
      cjk_characters: 0,
      paragraphs: 2,
      headings: 1,
      lines: 8,
      markdown: true,
    });
    expect(tool.renderResult(result)).toBe(
      "essay.md: 9 words, 44 characters without spaces, 2 paragraphs, 1 heading, 8 lines.",
    );
  });

  it("counts each CJK character as one word", async () => {
    await writeFile(
      join(root, "zh.md"),
      "# 标题\n\n这是一个测试。Hello 世界！\n\nカタカナ と 한국어\n",
    );
    const result = await createCountWordsTool({ workspace }).run({ path: "zh.md" });
    expect(result.success && result.data).toMatchObject({
      words: 2 + 6 + 1 + 2 + 4 + 1 + 3,
      cjk_characters: 2 + 6 + 2 + 4 + 1 + 3,
      paragraphs: 2,
      headings: 1,
    });
  });

  it("reads plain text files without Markdown rules, and UTF-16", async () => {
    await writeFile(
      join(root, "notes.txt"),
      encodeText("# not a heading\n\nsecond [x](y)\n", "utf-16le"),
    );
    const result = await createCountWordsTool({ workspace }).run({ path: "notes.txt" });
    expect(result.success && result.data).toMatchObject({
      headings: 0,
      paragraphs: 2,
      words: 6,
      markdown: false,
    });
  });

  it("refuses binary files and secrets, says why a count is zero", async () => {
    await writeFile(join(root, "blob.md"), new Uint8Array([0, 0, 1]));
    await writeFile(join(root, ".env"), "A=1");
    await writeFile(join(root, "empty.md"), "");
    const tool = createCountWordsTool({ workspace });
    const binary = await tool.run({ path: "blob.md" });
    expect(binary.success ? undefined : binary.error.code).toBe("UNSUPPORTED");
    const secret = await tool.run({ path: ".env" });
    expect(secret.success ? undefined : secret.error.code).toBe("BLOCKED");
    const escaped = await tool.run({ path: "../x.md" });
    expect(escaped.success ? undefined : escaped.error.code).toBe("INVALID_PATH");
    expect(tool.renderResult(await tool.run({ path: "empty.md" }))).toMatch(/has no words/);
    await mkdir(join(root, "docs"));
    const directory = await tool.run({ path: "docs" });
    expect(directory.success ? undefined : directory.error).toMatchObject({
      code: "INVALID_PATH",
      message: "docs is a directory, not a file; count_words reads a text document.",
      hint: expect.stringContaining("list_directory"),
    });
    const missing = await tool.run({ path: "nope.md" });
    expect(missing.success ? undefined : missing.error.code).toBe("FILE_NOT_FOUND");
  });

  it("works over the memory seam and passes the conformance kit", async () => {
    const memory = createWorkspace({ fileSystem: createMemoryFileSystem({ sample: "one two\n" }) });
    const tool = createCountWordsTool({ workspace: memory });
    await assertConformance([tool], { samples: { count_words: { path: "sample" } } });
    const aliased = await tool.run({ file_path: "sample" });
    expect(aliased.success && aliased.data.words).toBe(2);
  });
});

describe("count_words's declared output schema", () => {
  it("is the data type exactly, and the tool declares it", () => {
    expectTypeOf<z.output<typeof countWordsOutputSchema>>().toEqualTypeOf<CountWordsToolData>();
    expect(createCountWordsTool({ workspace }).output).toBe(countWordsOutputSchema);
    const schema = toOutputJsonSchema(createCountWordsTool({ workspace }));
    expect(schema?.required).toEqual(Object.keys(countWordsOutputSchema.shape));
    expect(schema?.additionalProperties).toBe(false);
  });

  it("matches Markdown, plain text, CJK and empty documents, dropping and reordering nothing", async () => {
    await writeFile(join(root, "a.md"), "# Title\n\nSome *words* here.\n");
    await writeFile(join(root, "b.txt"), "plain text\nsecond line\n");
    await writeFile(join(root, "c.md"), "日本語の文章です。\n");
    await writeFile(join(root, "empty.txt"), "");
    const tool = createCountWordsTool({ workspace });
    for (const path of ["a.md", "b.txt", "c.md", "empty.txt"]) {
      const result = await tool.run({ path });
      if (!result.success) throw new Error(JSON.stringify(result.error));
      expect(JSON.stringify(countWordsOutputSchema.parse(result.data))).toBe(
        JSON.stringify(result.data),
      );
    }
  });
});
