import { assertConformance } from "@agentool/contract/testing";
import { describe, expect, it } from "vitest";
import { createApplyPatchTool } from "./apply-patch.js";
import { createEditFileTool } from "./edit-file.js";
import { createMemoryFileSystem } from "./memory-file-system.js";
import { createMultiEditTool } from "./multi-edit.js";
import { createReadFileTool } from "./read-file.js";
import { createWorkspace } from "./workspace.js";
import { createWriteFileTool } from "./write-file.js";

const lines = (count: number) =>
  Array.from({ length: count }, (_, index) => `line ${index + 1}`).join("\n");

function fixture() {
  return createMemoryFileSystem({
    "notes.txt": "alpha\nbeta\ngamma\n",
    "long.txt": `${lines(30)}\n`,
    "edit.txt": "one\ntwo\nthree\n",
    "multi.txt": "red green blue\n",
  });
}

describe("read_file, write_file, edit_file and multi_edit at the tool boundary", () => {
  it("pass the conformance kit mounted together, read_file's cut sample paging on", async () => {
    const workspace = createWorkspace({ fileSystem: fixture() });
    const mounted = ["read_file", "write_file", "edit_file", "multi_edit", "apply_patch"];
    const tools = [
      createReadFileTool({ workspace, mountedTools: mounted }),
      createWriteFileTool({ workspace, mountedTools: mounted }),
      createEditFileTool({ workspace, mountedTools: mounted }),
      createMultiEditTool({ workspace, mountedTools: mounted }),
      createApplyPatchTool({ workspace, mountedTools: mounted }),
    ];
    await assertConformance(tools, {
      samples: {
        read_file: { path: "notes.txt" },
        write_file: { path: "out/new.txt", content: "hello\n" },
        edit_file: { path: "edit.txt", old_text: "two", new_text: "TWO" },
        multi_edit: { path: "multi.txt", edits: [{ old_text: "green", new_text: "GREEN" }] },
        apply_patch: {
          patch:
            "*** Begin Patch\n*** Update File: long.txt\n@@\n line 2\n-line 3\n+line three\n*** Add File: added.txt\n+new\n*** End Patch",
        },
      },
      cutSamples: { read_file: { path: "long.txt", limit: 10 } },
    });
  });

  it("pass it alone too: each default description names no absent tool", async () => {
    const workspace = createWorkspace({ fileSystem: fixture() });
    for (const tool of [
      createReadFileTool({ workspace }),
      createWriteFileTool({ workspace }),
      createEditFileTool({ workspace }),
      createMultiEditTool({ workspace }),
      createApplyPatchTool({ workspace }),
    ]) {
      await assertConformance([tool]);
    }
  });

  it("read-only mounting: read_file tells nothing about the edit tools", async () => {
    const workspace = createWorkspace({ fileSystem: fixture() });
    const readOnly = createReadFileTool({ workspace, mountedTools: ["read_file", "grep_search"] });
    await assertConformance([readOnly], {
      alsoMounted: ["grep_search"],
      samples: { read_file: { path: "notes.txt" } },
      cutSamples: { read_file: { path: "long.txt", limit: 7 } },
    });
    expect(readOnly.description).not.toMatch(/edit_file|multi_edit|write_file|expected_sha/);
  });

  it("read_file's cut page has the paging facts and the exact next call", async () => {
    const workspace = createWorkspace({ fileSystem: fixture() });
    const readFile = createReadFileTool({ workspace });
    const result = await readFile.run({ path: "long.txt", limit: 10 });
    expect(result).toMatchObject({
      success: true,
      data: { total: 30, next_offset: 11, truncated: true, start_line: 1, end_line: 10 },
    });
    expect(String(readFile.renderResult(result))).toContain(
      '…[truncated: 20 more lines — call read_file again with path="long.txt", limit=10, offset=11]',
    );
    const last = await readFile.run({ path: "long.txt", offset: 21, limit: 10 });
    expect(last.success && last.data.next_offset).toBeUndefined();
    expect(last.success && last.data.truncated).toBe(false);
    const past = await readFile.run({ path: "long.txt", offset: 31 });
    expect(past).toMatchObject({ success: false, error: { code: "INVALID_INPUT" } });
  });
});
