import { symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
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

  it("caps headings with a marker naming the next offset, and explains an empty outline", async () => {
    await writeFile(
      join(root, "many.md"),
      Array.from({ length: 10 }, (_, index) => `# H${index}`).join("\n"),
    );
    await writeFile(join(root, "plain.md"), "just text\n");
    const tool = createExtractTocTool({ workspace, maxHeadings: 3 });
    const capped = await tool.run({ path: "many.md" });
    expect(tool.renderResult(capped)).toMatch(
      /…\[truncated: 7 more headings — read the rest of the document with read_file from offset=4\]/,
    );
    expect(tool.renderResult(await tool.run({ path: "plain.md" }))).toMatch(
      /has no Markdown headings/,
    );
  });

  it("refuses binary, too large, directories, escapes and secrets", async () => {
    await writeFile(join(root, "image.md"), new Uint8Array([0, 1, 2, 3]));
    await writeFile(join(root, "big.md"), "# x\n".repeat(100));
    await writeFile(join(outside, "o.md"), "# O");
    await symlink(join(outside, "o.md"), join(root, "link.md"));
    await writeFile(join(root, "secrets.yaml"), "# s");
    const tool = createExtractTocTool({ workspace, maxFileBytes: 100 });
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
    const memory = createWorkspace({ fileSystem: createMemoryFileSystem({ sample: "# Title\n" }) });
    await assertConformance([createExtractTocTool({ workspace: memory })], {
      samples: { extract_toc: { path: "sample" } },
    });
  });
});
