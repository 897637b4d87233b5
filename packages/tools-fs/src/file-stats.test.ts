import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { assertConformance } from "@agentool/contract/testing";
import { describe, expect, it } from "vitest";
import { createFileStatsTool, type FileStatsToolData } from "./file-stats.js";
import { encodeText } from "./internal/text-codec.js";
import { createMemoryFileSystem } from "./memory-file-system.js";
import { useNodeWorkspace } from "./test-support/seams.js";
import { createWorkspace, type Workspace } from "./workspace.js";

let root: string;
let outside: string;
let workspace: Workspace;

useNodeWorkspace("agentool-stats-", (fixture) => {
  ({ root, outside, workspace } = fixture);
});

async function stats(path: string | undefined, options: Record<string, unknown> = {}) {
  const tool = createFileStatsTool({ workspace, ...options });
  const result = await tool.run(path === undefined ? {} : { path });
  if (!result.success) throw new Error(JSON.stringify(result.error));
  return { data: result.data as FileStatsToolData, text: tool.renderResult(result) as string };
}

describe("createFileStatsTool", () => {
  it("reports lines, bytes, encoding, line endings and an ISO time for a text file", async () => {
    await writeFile(join(root, "a.md"), "one\r\ntwo\r\nthree");
    const { data, text } = await stats("a.md");
    expect(data).toMatchObject({
      kind: "file",
      bytes: 15,
      lines: 3,
      binary: false,
      encoding: "utf-8",
      lineEnding: "crlf",
      streamed: false,
    });
    expect(data.kind === "file" && data.modified).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
    expect(text).toContain("3 lines, utf-8, CRLF line endings");
  });

  it("flags binary files and decodes UTF-16 and BOMs", async () => {
    await writeFile(join(root, "bin"), new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]));
    await writeFile(join(root, "u16"), encodeText("a\nb\n", "utf-16le"));
    await writeFile(join(root, "bom"), encodeText("x\n", "utf-8-bom"));
    expect((await stats("bin")).data).toMatchObject({ binary: true, lines: null, encoding: null });
    expect((await stats("u16")).data).toMatchObject({
      lines: 2,
      encoding: "utf-16le",
      lineEnding: "lf",
    });
    expect((await stats("bom")).data).toMatchObject({ lines: 1, encoding: "utf-8 with BOM" });
  });

  it("streams files above the threshold with the same figures", async () => {
    const text = "alpha\nbeta\r\ngamma\n".repeat(1000);
    await writeFile(join(root, "big.txt"), text);
    await writeFile(join(root, "u16.txt"), encodeText("a\r\nb\r\nc", "utf-16be"));
    const whole = (await stats("big.txt")).data;
    const streamed = (await stats("big.txt", { streamThresholdBytes: 10, streamChunkBytes: 4096 }))
      .data;
    expect(streamed).toMatchObject({ streamed: true, lines: 3000, lineEnding: "mixed" });
    expect(whole).toMatchObject({ streamed: false, lines: 3000, lineEnding: "mixed" });
    expect(
      (await stats("u16.txt", { streamThresholdBytes: 1, streamChunkBytes: 4096 })).data,
    ).toMatchObject({
      lines: 3,
      lineEnding: "crlf",
      encoding: "utf-16be",
    });
  });

  it("counts lines of a file over 8 MiB by streaming", async () => {
    await writeFile(join(root, "huge.log"), "0123456789abcdef\n".repeat(600_000));
    const { data } = await stats("huge.log");
    expect(data).toMatchObject({ streamed: true, lines: 600_000, bytes: 17 * 600_000 });
  });

  it("lists a directory per file with totals, skipping hidden, ignored and secret entries, capped", async () => {
    await mkdir(join(root, "src"));
    await writeFile(join(root, "src/a.ts"), "1\n2\n");
    await writeFile(join(root, "src/b.ts"), "1\n");
    await writeFile(join(root, "c.md"), "x");
    await writeFile(join(root, ".hidden"), "x\n");
    await writeFile(join(root, ".gitignore"), "*.log\n");
    await writeFile(join(root, "x.log"), "x\n");
    await writeFile(join(root, "id_rsa"), "KEY\n");
    const { data, text } = await stats(undefined);
    expect(data.kind).toBe("directory");
    if (data.kind !== "directory") return;
    expect(data.files.map((file) => [file.path, file.lines])).toEqual([
      ["c.md", 1],
      ["src/a.ts", 2],
      ["src/b.ts", 1],
    ]);
    expect(data.totals).toMatchObject({ files: 3, directories: 1, lines: 4 });
    expect(data.skippedHidden).toBe(2);
    expect(data.skippedIgnored).toBe(1);
    expect(text).not.toContain("id_rsa");
    const capped = await stats(undefined, { maxFiles: 2 });
    expect(capped.text).toMatch(/…\[truncated: 1 more file — call file_stats on a subdirectory/);
  });

  it("refuses escapes and secrets", async () => {
    await symlink(outside, join(root, "escape"));
    await writeFile(join(root, ".env"), "KEY=1");
    const tool = createFileStatsTool({ workspace });
    for (const path of ["../x", "/etc/passwd", "escape"]) {
      const result = await tool.run({ path });
      expect(result.success ? undefined : result.error.code, path).toBe("INVALID_PATH");
    }
    const secret = await tool.run({ path: ".env" });
    expect(secret.success ? undefined : secret.error.code).toBe("BLOCKED");
  });

  it("works over the memory seam and passes the conformance kit", async () => {
    const memory = createWorkspace({ fileSystem: createMemoryFileSystem({ sample: "a\nb\n" }) });
    const tool = createFileStatsTool({ workspace: memory });
    const result = await tool.run({ path: "sample" });
    expect(result.success && result.data).toMatchObject({ lines: 2 });
    await assertConformance([tool], { samples: { file_stats: {} } });
  });
});
