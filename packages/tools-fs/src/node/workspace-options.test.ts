import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  AgentoolError,
  parseOptions,
  type ToolFailure,
  ToolFailureError,
} from "@agentool/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createMemoryFileSystem } from "../memory-file-system.js";
import { createWorkspace } from "../workspace.js";
import { readWorkspaceFile } from "./read-workspace-file.js";
import { workspaceFromOptions, workspaceOptionsShape } from "./workspace-options.js";

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "agentool-workspace-options-"));
  await mkdir(join(root, "docs"));
  await writeFile(join(root, "docs", "a.txt"), "alpha\n");
  await writeFile(join(root, "big.bin"), new Uint8Array(5_000));
  await writeFile(join(root, ".env"), "API_KEY=secret\n");
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function failureOf(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  // ToolFailureError (the reader's refusals) or FileSystemError (the workspace's).
  const { code, message, hint } = (error as { toFailure(): ToolFailure }).toFailure().error;
  return { code, error: message, hint };
}

describe("workspaceOptionsShape", () => {
  const schema = z.object(workspaceOptionsShape).strict();

  it("takes a root or a workspace with the contract's overrides", () => {
    const workspace = createWorkspace({ fileSystem: createMemoryFileSystem({}) });
    expect(parseOptions("createMyTool", schema, { root, timeoutMs: 0, name: "my_tool" })).toEqual({
      root,
      timeoutMs: 0,
      name: "my_tool",
    });
    expect(parseOptions("createMyTool", schema, { workspace }).workspace).toBe(workspace);
  });

  it("refuses what is not a workspace, an out-of-range cap and unknown keys", () => {
    expect(() => parseOptions("createMyTool", schema, { workspace: { root } })).toThrow(
      /expected a workspace made by createWorkspace\(\{ fileSystem \}\) from @agentool\/tools-fs/,
    );
    expect(() => parseOptions("createMyTool", schema, { root, maxFileBytes: 10 })).toThrow(
      AgentoolError,
    );
    expect(() => parseOptions("createMyTool", schema, { root, rot: "x" })).toThrow(AgentoolError);
  });
});

describe("workspaceFromOptions", () => {
  it("returns the workspace given, as is", () => {
    const workspace = createWorkspace({ fileSystem: createMemoryFileSystem({}) });
    expect(workspaceFromOptions("createMyTool", { workspace, root })).toBe(workspace);
  });

  it("builds a Node workspace over root with the default secret paths", async () => {
    const workspace = workspaceFromOptions("createMyTool", { root });
    expect((await workspace.resolve("docs/a.txt")).display).toBe("docs/a.txt");
    expect((await failureOf(workspace.resolve(".env"))).code).toBe("BLOCKED");
    expect((await failureOf(workspace.resolve("../outside"))).code).toBe("INVALID_PATH");
    const open = workspaceFromOptions("createMyTool", { root, secretPaths: ["docs/**"] });
    expect(open.isSecret(".env")).toBe(false);
    expect(open.isSecret("docs/a.txt")).toBe(true);
  });

  it("names the factory when neither root nor workspace is given", () => {
    expect(() => workspaceFromOptions("createMyTool", {})).toThrow(
      "createMyTool: give root (the directory to confine the tools to) or workspace (from createWorkspace of @agentool/tools-fs).",
    );
  });
});

describe("readWorkspaceFile", () => {
  const workspace = () => workspaceFromOptions("createMyTool", { root });

  it("reads a file whole, with its resolved path and stat", async () => {
    const file = await readWorkspaceFile(workspace(), "./docs/a.txt", { maxFileBytes: 1_000 });
    expect(new TextDecoder().decode(file.bytes)).toBe("alpha\n");
    expect(file.resolved.display).toBe("docs/a.txt");
    expect(file.stat).toMatchObject({ type: "file", size: 6 });
  });

  it("refuses a missing file, a directory and an oversized one in the caller's words", async () => {
    const options = {
      maxFileBytes: 1_000,
      missingHint: "Find it with glob_search.",
      directory: { code: "INVALID_INPUT" as const, hint: "Name one source file." },
      tooLarge: { reader: "a code tool reads", hint: "Search it instead." },
    };
    expect(await failureOf(readWorkspaceFile(workspace(), "nope.txt", options))).toEqual({
      code: "FILE_NOT_FOUND",
      error: "nope.txt does not exist.",
      hint: "Find it with glob_search.",
    });
    expect(await failureOf(readWorkspaceFile(workspace(), "docs", options))).toEqual({
      code: "INVALID_INPUT",
      error: "docs is a directory, not a file.",
      hint: "Name one source file.",
    });
    expect(await failureOf(readWorkspaceFile(workspace(), "big.bin", options))).toEqual({
      code: "TOO_LARGE",
      error: "big.bin has 5000 bytes, more than the 1000 a code tool reads.",
      hint: "Search it instead.",
    });
  });

  it("has defaults for the wording, refuses the root and secrets, and runs checkResolved first", async () => {
    const defaults = { maxFileBytes: 1_000 };
    expect(await failureOf(readWorkspaceFile(workspace(), "docs", defaults))).toMatchObject({
      code: "INVALID_PATH",
      hint: "Name one file.",
    });
    expect(await failureOf(readWorkspaceFile(workspace(), "big.bin", defaults))).toMatchObject({
      code: "TOO_LARGE",
      error: "big.bin has 5000 bytes, more than the 1000 this tool reads.",
    });
    expect((await failureOf(readWorkspaceFile(workspace(), ".", defaults))).code).toBe(
      "INVALID_PATH",
    );
    expect((await failureOf(readWorkspaceFile(workspace(), ".env", defaults))).code).toBe(
      "BLOCKED",
    );
    const refused = readWorkspaceFile(workspace(), "missing/x.txt", {
      ...defaults,
      checkResolved: (resolved) => {
        throw new ToolFailureError("BLOCKED", `${resolved.display} is refused.`);
      },
    });
    expect(await failureOf(refused)).toMatchObject({
      code: "BLOCKED",
      error: "missing/x.txt is refused.",
    });
  });

  it.skipIf(process.platform === "win32")("refuses a FIFO without blocking", async () => {
    const { execFileSync } = await import("node:child_process");
    execFileSync("mkfifo", [join(root, "pipe")]);
    const failure = await failureOf(
      readWorkspaceFile(workspace(), "pipe", { maxFileBytes: 1_000 }),
    );
    expect(failure).toMatchObject({
      code: "UNSUPPORTED",
      error: expect.stringContaining("pipe is a FIFO (named pipe), not a regular file"),
    });
  });
});
