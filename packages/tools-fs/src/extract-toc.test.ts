import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseNextCall } from "@agentool/contract";
import { assertConformance } from "@agentool/contract/testing";
import { describe, expect, it } from "vitest";
import { createExtractTocTool } from "./extract-toc.js";
import { createMemoryFileSystem } from "./memory-file-system.js";
import { useNodeWorkspace } from "./test-support/seams.js";
import { createWorkspace, type Workspace } from "./workspace.js";

let root: string;
let outside: string;
let workspace: Workspace;

useNodeWorkspace("agentool-toc-", (fixture) => {
  ({ root, outside, workspace } = fixture);
});

const GUIDE = [
  "# Guide",
  "",
  "Intro",
  "",
  "Install",
  "-------",
  "",
  "```bash",
  "# not a heading",
  "```",
  "",
  "### Details ###",
  "",
  "~~~",
  "## nor this",
  "~~~",
  "## Usage",
].join("\n");

describe("createExtractTocTool", () => {
  it("returns ATX and Setext headings outside code, rendered as an indented outline", async () => {
    await writeFile(join(root, "guide.md"), GUIDE);
    const tool = createExtractTocTool({ workspace });
    const result = await tool.run({ path: "guide.md" });
    expect(result.success && result.data.toc).toEqual([
      { level: 1, title: "Guide", line: 1 },
      { level: 2, title: "Install", line: 5 },
      { level: 3, title: "Details", line: 12 },
      { level: 2, title: "Usage", line: 17 },
    ]);
    expect(tool.renderResult(result)).toBe(
      [
        "Table of contents of guide.md (4 headings, 17 lines):",
        "- Guide (H1, line 1)",
        "  - Install (H2, line 5)",
        "    - Details (H3, line 12)",
        "  - Usage (H2, line 17)",
      ].join("\n"),
    );
  });

  it("pages headings: the marker names the exact next call, which returns the rest", async () => {
    await writeFile(
      join(root, "many.md"),
      Array.from({ length: 10 }, (_, index) => `# H${index}`).join("\n"),
    );
    const tool = createExtractTocTool({ workspace, defaultLimit: 3 });
    const first = await tool.run({ path: "many.md" });
    expect(first.success && first.data).toMatchObject({
      offset: 1,
      total: 10,
      next_offset: 4,
      truncated: true,
    });
    const text = tool.renderResult(first) as string;
    expect(text).toContain("Table of contents of many.md (headings 1–3 of 10, 10 lines):");
    expect(text).toContain(
      '…[truncated: 7 more headings — call extract_toc again with path="many.md", limit=3, offset=4]',
    );
    const next = parseNextCall(text);
    expect(next).toEqual({ tool: "extract_toc", args: { path: "many.md", limit: 3, offset: 4 } });
    // The limit asked for is repeated.
    const small = await tool.run({ path: "many.md", limit: 2 });
    expect(parseNextCall(tool.renderResult(small) as string)).toEqual({
      tool: "extract_toc",
      args: { path: "many.md", limit: 2, offset: 3 },
    });
    const second = await tool.run({ ...next?.args, limit: 100 });
    expect(second.success && second.data.toc.map((entry) => entry.title)).toEqual(
      Array.from({ length: 7 }, (_, index) => `H${index + 3}`),
    );
    expect(second.success && second.data).toMatchObject({ truncated: false });
    expect(second.success && "next_offset" in second.data).toBe(false);
    const past = await tool.run({ path: "many.md", offset: 11 });
    expect(past.success ? undefined : past.error).toMatchObject({
      code: "INVALID_INPUT",
      message: expect.stringContaining("offset=11 is past the end: there are 10 headings in all"),
    });
  });

  it("explains an empty outline, naming read_file only when it is mounted", async () => {
    await writeFile(join(root, "plain.md"), "just text\n");
    const alone = createExtractTocTool({ workspace });
    const text = alone.renderResult(await alone.run({ path: "plain.md" })) as string;
    expect(text).toMatch(/has no Markdown headings/);
    expect(text).toContain("in its 1 line.");
    expect(text).not.toContain("read_file");
    expect(alone.description).not.toContain("read_file");
    const beside = createExtractTocTool({ workspace, mountedTools: ["read_file"] });
    expect(beside.renderResult(await beside.run({ path: "plain.md" }))).toContain(
      "Read it with read_file instead.",
    );
    expect(beside.description).toContain("call read_file with offset");
  });

  it("refuses binary, too large, directories, escapes and secrets", async () => {
    await writeFile(join(root, "image.md"), new Uint8Array([0, 1, 2, 3]));
    await writeFile(join(root, "big.md"), "# x\n".repeat(100));
    await writeFile(join(outside, "o.md"), "# O");
    await symlink(join(outside, "o.md"), join(root, "link.md"));
    await writeFile(join(root, "secrets.yaml"), "# s");
    const tool = createExtractTocTool({ workspace, maxFileBytes: 100 });
    await mkdir(join(root, "docs.md"));
    const directory = await tool.run({ path: "docs.md" });
    expect(directory.success ? undefined : directory.error).toMatchObject({
      code: "INVALID_PATH",
      message: "docs.md is a directory, not a file; extract_toc reads a text document.",
      hint: expect.stringContaining("list_directory"),
    });
    const codes: Record<string, string | undefined> = {};
    for (const path of [
      "image.md",
      "big.md",
      ".",
      "../o.md",
      "link.md",
      "secrets.yaml",
      "missing.md",
    ]) {
      const result = await tool.run({ path });
      codes[path] = result.success ? "success" : result.error.code;
    }
    expect(codes).toEqual({
      "image.md": "UNSUPPORTED",
      "big.md": "TOO_LARGE",
      ".": "INVALID_PATH",
      "../o.md": "INVALID_PATH",
      "link.md": "INVALID_PATH",
      "secrets.yaml": "BLOCKED",
      "missing.md": "FILE_NOT_FOUND",
    });
  });

  it("works over the memory seam and passes the conformance kit", async () => {
    const memory = createWorkspace({
      fileSystem: createMemoryFileSystem({ sample: "# Title\n\n## Part\n" }),
    });
    const tool = createExtractTocTool({ workspace: memory });
    await assertConformance([tool], {
      samples: { extract_toc: { path: "sample" } },
      cutSamples: { extract_toc: { path: "sample", limit: 1 } },
    });
    const aliased = await tool.run({ file_path: "sample" });
    expect(aliased.success && aliased.data.total).toBe(2);
  });
});
