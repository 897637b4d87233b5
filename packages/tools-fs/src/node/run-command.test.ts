import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AgentoolError, TRUNCATION_MARKER_PATTERN, toJsonSchema } from "@agentool/contract";
import { assertConformance } from "@agentool/contract/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createMemoryFileSystem } from "../memory-file-system.js";
import { createWorkspace } from "../workspace.js";
import { createNodeFileSystem } from "./node-file-system.js";
import type { RunCommandToolData } from "./run-command/run-command-data.js";
import { splitCommandString } from "./run-command/split-command-string.js";
import { suggestArgv } from "./run-command/suggest-argv.js";
import { createRunCommandTool } from "./run-command.js";

let root: string;
let outside: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "agentool-run-"));
  outside = await mkdtemp(join(tmpdir(), "agentool-run-outside-"));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

async function success(promise: Promise<unknown>): Promise<RunCommandToolData> {
  const result = (await promise) as {
    success: boolean;
    data?: RunCommandToolData;
    error?: unknown;
  };
  if (!result.success) throw new Error(`expected success, got ${JSON.stringify(result.error)}`);
  return result.data as RunCommandToolData;
}

async function failure(
  promise: Promise<unknown>,
): Promise<{ code: string; message: string; hint?: string }> {
  const result = (await promise) as { success: boolean; error?: { code: string; message: string } };
  if (result.success) throw new Error(`expected failure, got ${JSON.stringify(result)}`);
  return result.error as { code: string; message: string };
}

describe("createRunCommandTool", () => {
  it("runs an allowed command in the root and reports exit code and output", async () => {
    const tool = createRunCommandTool({ root, allowedCommands: ["echo", "pwd"] });
    const data = await success(tool.run({ command: ["echo", "hello", "$(whoami)", "`id`;x"] }));
    expect(data.exit_code).toBe(0);
    expect(data.stdout.text).toBe("hello $(whoami) `id`;x");
    expect(data.cwd).toBe(".");
    const text = tool.renderResult({ success: true, data });
    expect(text).toContain("exit code 0");
    const pwd = await success(tool.run({ command: ["pwd"] }));
    expect(pwd.stdout.text).toContain(root.split("/").pop());
  });

  it("reports a non-zero exit as a success with exitCode, and says so", async () => {
    await writeFile(join(root, "a.txt"), "x");
    const tool = createRunCommandTool({ root, allowedCommands: ["ls"] });
    const result = await tool.run({ command: ["ls", "missing-file"] });
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.data.exit_code).not.toBe(0);
    expect(result.data.stderr.text.length).toBeGreaterThan(0);
    expect(tool.renderResult(result)).toMatch(/the command ran and reported a failure/);
  });

  it("advertises command as an argv array only, and still takes a plain string silently", async () => {
    const tool = createRunCommandTool({ root, allowedCommands: ["echo"] });
    // No union: clients that rebuild zod from the JSON Schema (@langchain/mcp-adapters) keep it.
    expect((toJsonSchema(tool).properties as Record<string, unknown>).command).toEqual({
      type: "array",
      items: { type: "string" },
      minItems: 1,
      description: expect.stringContaining("as an array"),
    });
    expect((await success(tool.run({ command: "echo plain" }))).command).toEqual(["echo", "plain"]);
    expect((await success(tool.run({ command: "echo" }))).command).toEqual(["echo"]);
    expect((await failure(tool.run({ command: "" }))).code).toBe("INVALID_INPUT");
    expect((await failure(tool.run({ command: "'echo'" }))).message).toContain('command=["echo"]');
  });

  it("splits a plain string, refuses one with shell metacharacters as INVALID_INPUT", async () => {
    expect(splitCommandString("git  status --short")).toEqual(["git", "status", "--short"]);
    const tool = createRunCommandTool({ root, allowedCommands: ["echo", "ls"] });
    expect((await success(tool.run({ command: "echo a b" }))).stdout.text).toBe("a b");
    expect((await success(tool.run({ command: ["echo a b"] }))).stdout.text).toBe("a b");
    for (const attack of [
      "ls; rm -rf /",
      "echo $(rm -rf /)",
      "echo `id`",
      "ls | sh",
      "ls && rm x",
      "ls > out",
      "echo \u0024{HOME}",
      "ls *",
      "echo 'quoted'",
      "ls\nrm x",
    ]) {
      const error = await failure(tool.run({ command: attack }));
      expect(error.code, attack).toBe("INVALID_INPUT");
      expect(error.message, attack).toContain("never runs a shell");
      expect(error.hint ?? "", attack).toMatch(/array|command=\[/);
    }
    expect((await failure(tool.run({ command: ["ls; rm -rf /"] }))).code).toBe("INVALID_INPUT");
    // Quotes only: the message gives the argv array to send instead (and nothing ran).
    const quoted = await failure(tool.run({ command: "echo \"two words\" 'and more'" }));
    expect(quoted.message).toContain('command=["echo","two words","and more"]');
    expect(quoted.hint).toBe(
      'Call run_command again with command=["echo","two words","and more"].',
    );
    expect(suggestArgv('git commit -m "fix the bug"')).toEqual([
      "git",
      "commit",
      "-m",
      "fix the bug",
    ]);
    expect(suggestArgv("ls | wc -l")).toBeUndefined();
    expect(suggestArgv('echo "$HOME"')).toBeUndefined();
    expect(suggestArgv("echo 'unclosed")).toBeUndefined();
  });

  it("refuses executables outside the allowlist, paths not listed exactly, and everything with an empty list", async () => {
    const tool = createRunCommandTool({ root, allowedCommands: ["echo"] });
    expect((await failure(tool.run({ command: ["rm", "-rf", "x"] }))).code).toBe("BLOCKED");
    expect((await failure(tool.run({ command: ["/bin/echo", "x"] }))).code).toBe("BLOCKED");
    expect((await failure(tool.run({ command: ["./echo", "x"] }))).code).toBe("BLOCKED");
    expect((await failure(tool.run({ command: ["sh", "-c", "echo hi"] }))).code).toBe("BLOCKED");
    const none = createRunCommandTool({ root, allowedCommands: [] });
    const error = await failure(none.run({ command: ["echo", "x"] }));
    expect(error.code).toBe("BLOCKED");
    expect(error.message).toMatch(/allowlist is empty/);
    const byPath = createRunCommandTool({ root, allowedCommands: ["/bin/echo"] });
    expect((await success(byPath.run({ command: ["echo", "ok"] }))).stdout.text).toBe("ok");
    expect((await success(byPath.run({ command: ["/bin/echo", "ok"] }))).stdout.text).toBe("ok");
  });

  it("reports an allowed but missing program as DEPENDENCY_MISSING", async () => {
    const tool = createRunCommandTool({ root, allowedCommands: ["agentool-no-such-program"] });
    expect((await failure(tool.run({ command: ["agentool-no-such-program"] }))).code).toBe(
      "DEPENDENCY_MISSING",
    );
  });

  it("confines cwd: .., absolute paths, symlinked directories out, files and secrets refused", async () => {
    await mkdir(join(root, "sub"));
    await writeFile(join(root, "file.txt"), "x");
    await symlink(outside, join(root, "escape"));
    await mkdir(join(root, ".ssh"));
    const tool = createRunCommandTool({ root, allowedCommands: ["pwd"] });
    expect((await success(tool.run({ command: ["pwd"], cwd: "sub" }))).cwd).toBe("sub");
    for (const cwd of ["..", "../..", "/etc", outside, "escape", "sub/../../x"]) {
      expect((await failure(tool.run({ command: ["pwd"], cwd }))).code, cwd).toBe("INVALID_PATH");
    }
    expect((await failure(tool.run({ command: ["pwd"], cwd: "file.txt" }))).code).toBe(
      "INVALID_PATH",
    );
    expect((await failure(tool.run({ command: ["pwd"], cwd: "missing" }))).code).toBe(
      "FILE_NOT_FOUND",
    );
    expect((await failure(tool.run({ command: ["pwd"], cwd: ".ssh" }))).code).toBe("BLOCKED");
  });

  it("refuses arguments that name secret paths", async () => {
    await writeFile(join(root, ".env"), "API_KEY=1");
    const tool = createRunCommandTool({ root, allowedCommands: ["cat"] });
    for (const argument of [
      ".env",
      "./.env",
      "sub/../.env",
      "--file=.env",
      "/home/u/.ssh/id_rsa",
      "~/.aws/credentials",
    ]) {
      expect((await failure(tool.run({ command: ["cat", argument] }))).code, argument).toBe(
        "BLOCKED",
      );
    }
  });

  it("scrubs the environment: no keys or tokens, only the allowlist", async () => {
    const saved = { ...process.env };
    process.env.MY_API_KEY = "leak-1";
    process.env.GITHUB_TOKEN = "leak-2";
    process.env.AGENTOOL_UNLISTED = "leak-3";
    process.env.LANG = "C.UTF-8";
    try {
      const tool = createRunCommandTool({
        root,
        allowedCommands: ["env"],
        environmentAllowlist: ["PATH", "LANG", "GITHUB_TOKEN", "MY_API_KEY"],
        environment: { CI: "1" },
      });
      const data = await success(tool.run({ command: ["env"] }));
      expect(data.stdout.text).not.toContain("leak-");
      expect(data.stdout.text).toContain("LANG=C.UTF-8");
      expect(data.stdout.text).toContain("CI=1");
      expect(data.stdout.text).not.toMatch(/^HOME=/m);
    } finally {
      process.env = saved;
    }
  });

  it("drops relative and in-workspace PATH entries so a planted program cannot shadow one", async () => {
    await mkdir(join(root, "bin"));
    await writeFile(join(root, "bin", "echo"), "#!/bin/sh\necho planted\n", { mode: 0o755 });
    const saved = process.env.PATH;
    process.env.PATH = `.:bin:${join(root, "bin")}:${saved}`;
    try {
      const tool = createRunCommandTool({ root, allowedCommands: ["echo"] });
      expect((await success(tool.run({ command: ["echo", "real"], cwd: "bin" }))).stdout.text).toBe(
        "real",
      );
    } finally {
      process.env.PATH = saved;
    }
  });

  it("caps large output head + tail with exact counts and the contract's marker", async () => {
    const tool = createRunCommandTool({
      root,
      allowedCommands: ["seq"],
      maxHeadLines: 5,
      maxTailLines: 5,
    });
    const result = await tool.run({ command: ["seq", "1", "100000"] });
    const data = await success(Promise.resolve(result));
    expect(data.truncated).toBe(true);
    expect(data.stdout.text).toBe("1\n2\n3\n4\n5");
    expect(data.stdout.tail).toBe("99996\n99997\n99998\n99999\n100000");
    // seq 1 100000 writes 588,895 bytes in 100,000 lines; 10 are shown.
    expect(data.stdout).toMatchObject({
      bytes: 588_895,
      lines: 100_000,
      omitted_lines: 99_990,
      tail_start_line: 99_996,
    });
    expect(data.stdout.omitted_bytes).toBe(
      588_895 - "1\n2\n3\n4\n5\n".length - "99996\n99997\n99998\n99999\n100000\n".length,
    );
    const text = String(tool.renderResult(result));
    expect(text).toContain(
      "5\n…[truncated: 99,990 more lines — 588,854 bytes of stdout left out after line 5; narrow what the command prints",
    );
    expect(text.endsWith("99999\n100000")).toBe(true);
  });

  it("keeps the output within a total character cap, cutting long lines inside head and tail", async () => {
    const script = [
      "const long = (c) => c.repeat(5000);",
      "for (let i = 1; i <= 2000; i++) process.stdout.write(i === 3 || i === 1999 ? long(String(i % 10)) + '\\n' : 'line ' + i + '\\n');",
      "process.stderr.write('err '.repeat(10) + '\\n');",
    ].join("");
    const tool = createRunCommandTool({
      root,
      allowedCommands: [process.execPath],
      maxOutputCharacters: 4_000,
      maxLineCharacters: 500,
    });
    const result = await tool.run({ command: [process.execPath, "-e", script] });
    const data = await success(Promise.resolve(result));
    const shown = data.stdout.text.length + data.stdout.tail.length + data.stderr.text.length;
    expect(shown).toBeLessThanOrEqual(4_000);
    expect(data.stdout.lines).toBe(2000);
    expect(data.stdout.text.split("\n")[2]).toBe("3".repeat(500));
    expect(data.stdout.cut_lines).toEqual([
      { line: 3, omitted_characters: 4500, omitted_after: 250 },
      { line: 1999, omitted_characters: 4500, omitted_after: 250 },
    ]);
    expect(data.stderr.text).toBe("err ".repeat(10));
    const text = String(tool.renderResult(result));
    expect(text).toContain(
      `${"3".repeat(250)} …[truncated: 4,500 more characters — the middle of line 3 of stdout; its last 250 characters follow] ${"3".repeat(250)}\n`,
    );
    expect(text).toContain(
      `${"9".repeat(250)} …[truncated: 4,500 more characters — the middle of line 1999 of stdout; its last 250 characters follow] ${"9".repeat(250)}\n`,
    );
    expect(text.length).toBeLessThan(4_000 + 1_000);
  });

  it("keeps the head and the end of one very long line (300 KB), with the contract's marker between", async () => {
    const script =
      "process.stdout.write('BEGIN-' + 'é'.repeat(150000) + 'x'.repeat(150000) + '-THE-END\\n');";
    const tool = createRunCommandTool({ root, allowedCommands: [process.execPath] });
    const result = await tool.run({ command: [process.execPath, "-e", script] });
    const data = await success(Promise.resolve(result));
    const length = "BEGIN-".length + 300_000 + "-THE-END".length;
    expect(data.stdout.lines).toBe(1);
    expect(data.stdout.text.startsWith("BEGIN-éé")).toBe(true);
    expect(data.stdout.text.endsWith("xx-THE-END")).toBe(true);
    expect(data.stdout.text).toHaveLength(2_000);
    expect(data.stdout.cut_lines).toEqual([
      { line: 1, omitted_characters: length - 2_000, omitted_after: 1_000 },
    ]);
    const text = String(tool.renderResult(result));
    const marker = text.match(TRUNCATION_MARKER_PATTERN)?.[0];
    expect(marker).toBe(
      `…[truncated: ${(length - 2_000).toLocaleString("en-US")} more characters — the middle of line 1 of stdout; its last 1,000 characters follow]`,
    );
    expect(text).toContain(`${"é".repeat(994)} ${marker} ${"x".repeat(992)}-THE-END`);
  });

  it("keeps a final line without a newline, strips ANSI colours and collapses \\r progress lines", async () => {
    const script = [
      "process.stdout.write('\\u001b[32mgreen\\u001b[0m and \\u001b[1;31mbold red\\u001b[0m\\n');",
      "process.stdout.write('progress 10%\\rprogress 50%\\rprogress 100%\\n');",
      "process.stdout.write('\\u001b]0;title\\u0007\\u001b[2Kdone\\r\\n');",
      "process.stdout.write('last line without newline');",
    ].join("");
    const tool = createRunCommandTool({ root, allowedCommands: [process.execPath] });
    const data = await success(tool.run({ command: [process.execPath, "-e", script] }));
    expect(data.stdout.text).toBe(
      "green and bold red\nprogress 100%\ndone\nlast line without newline",
    );
    expect(data.stdout.lines).toBe(4);
    expect(data.truncated).toBe(false);
  });

  it("loses nothing when a Node child writes a lot and exits at once", async () => {
    // Pending writes to a pipe die with process.exit(); output to a file does not.
    const script =
      "process.stdout.write('x'.repeat(3000000) + '\\nend'); process.stderr.write('e'.repeat(500000)); process.exit(3);";
    const tool = createRunCommandTool({ root, allowedCommands: [process.execPath] });
    const data = await success(tool.run({ command: [process.execPath, "-e", script] }));
    expect(data.exit_code).toBe(3);
    expect(data.stdout.bytes).toBe(3_000_004);
    expect(data.stderr.bytes).toBe(500_000);
    expect(data.stdout.lines).toBe(2);
    expect(data.stdout.text.endsWith("\nend")).toBe(true);
  });

  it("does not wait for a background process that keeps the output open, and says it was stopped", async () => {
    const script =
      "require('child_process').spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)'], { stdio: 'inherit' }).unref(); console.log('parent done');";
    // On the host: the sandbox stops every process with the command (run-command.security.test.ts).
    const tool = createRunCommandTool({
      root,
      allowedCommands: [process.execPath],
      killGraceMs: 200,
      sandbox: "none",
    });
    const started = Date.now();
    const result = await tool.run({ command: [process.execPath, "-e", script] });
    const data = await success(Promise.resolve(result));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(data).toMatchObject({ exit_code: 0, stopped_background: true });
    expect(data.stdout.text).toBe("parent done");
    expect(String(tool.renderResult(result))).toContain("they were stopped");
  });

  it("suggests timeout_ms for timeout, and explains milliseconds on a tiny timeout", async () => {
    const tool = createRunCommandTool({
      root,
      allowedCommands: ["sleep", "echo"],
      killGraceMs: 100,
    });
    const wrong = await failure(tool.run({ command: ["echo", "x"], timeout: 60 }));
    expect(wrong.code).toBe("INVALID_INPUT");
    expect(wrong.message).toContain('did you mean "timeout_ms"');
    const tiny = await failure(tool.run({ command: ["sleep", "5"], timeout_ms: 60 }));
    expect(tiny.code).toBe("TIMEOUT");
    expect(tiny.hint).toContain("timeout_ms is in milliseconds: 60 is 0.06 s");
    expect((await success(tool.run({ cmd: ["echo", "alias"] }))).stdout.text).toBe("alias");
  });

  it("never suggests a timeout_ms above the maximum as the seconds the model may have meant", async () => {
    const tool = createRunCommandTool({
      root,
      allowedCommands: ["sleep"],
      killGraceMs: 100,
      maxTimeoutMs: 60_000,
    });
    // 120 seconds would be 120000 ms, over the 60000 allowed: say so, do not call 60000 "120 seconds".
    const over = await failure(tool.run({ command: ["sleep", "5"], timeout_ms: 120 }));
    expect(over.code).toBe("TIMEOUT");
    expect(over.hint).not.toContain("For 120 seconds pass timeout_ms=60000");
    expect(over.hint).toContain("more than allowed: pass at most timeout_ms=60000 (60 s)");
    const within = await failure(tool.run({ command: ["sleep", "5"], timeout_ms: 50 }));
    expect(within.hint).toContain("For 50 seconds pass timeout_ms=50000 (at most 60000)");
  });

  it("names create_directory in the missing-cwd hint only when it is mounted", async () => {
    const alone = createRunCommandTool({ root, allowedCommands: ["pwd"] });
    const bare = await failure(alone.run({ command: ["pwd"], cwd: "missing" }));
    expect(bare.code).toBe("FILE_NOT_FOUND");
    expect(bare.hint).not.toContain("create_directory");
    expect(bare.hint).toContain("leave cwd out");
    const beside = createRunCommandTool({
      root,
      allowedCommands: ["pwd"],
      mountedTools: ["create_directory", "list_directory"],
    });
    const named = await failure(beside.run({ command: ["pwd"], cwd: "missing" }));
    expect(named.hint).toContain("create_directory");
  });

  it("takes the root from a Node workspace, and refuses a seam without a directory on disk", async () => {
    const workspace = createWorkspace({ fileSystem: createNodeFileSystem({ root }) });
    const tool = createRunCommandTool({ workspace, allowedCommands: ["echo"] });
    expect((await success(tool.run({ command: ["echo", "ok"] }))).stdout.text).toBe("ok");
    const memory = createWorkspace({ fileSystem: createMemoryFileSystem() });
    expect(() => createRunCommandTool({ workspace: memory, allowedCommands: [] })).toThrow(
      AgentoolError,
    );
    expect(() => createRunCommandTool({ allowedCommands: [] })).toThrow(AgentoolError);
    expect(() =>
      createRunCommandTool({ root, allowedCommands: [], unknown: 1 } as unknown as Parameters<
        typeof createRunCommandTool
      >[0]),
    ).toThrow(/unknown/);
  });

  it("passes the conformance kit", async () => {
    const tool = createRunCommandTool({ root, allowedCommands: ["echo"] });
    await assertConformance([tool], { samples: { run_command: { command: ["echo", "hi"] } } });
    expect(tool.annotations).toMatchObject({ destructive: true, openWorld: false });
    expect(tool.tags).toEqual(["shell"]);
  });
});
