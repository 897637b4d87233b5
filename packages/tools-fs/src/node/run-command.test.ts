import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AgentoolError } from "@agentool/contract";
import { assertConformance } from "@agentool/contract/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createMemoryFileSystem } from "../memory-file-system.js";
import { createWorkspace } from "../workspace.js";
import { createNodeFileSystem } from "./node-file-system.js";
import {
  createRunCommandTool,
  type RunCommandToolData,
  splitCommandString,
} from "./run-command.js";

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

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("condition not met in time");
}

describe("createRunCommandTool", () => {
  it("runs an allowed command in the root and reports exit code and output", async () => {
    const tool = createRunCommandTool({ root, allowedCommands: ["echo", "pwd"] });
    const data = await success(tool.run({ command: ["echo", "hello", "$(whoami)", "`id`;x"] }));
    expect(data.exitCode).toBe(0);
    expect(data.stdout).toBe("hello $(whoami) `id`;x");
    expect(data.cwd).toBe(".");
    const text = tool.renderResult({ success: true, data });
    expect(text).toContain("exit code 0");
    const pwd = await success(tool.run({ command: ["pwd"] }));
    expect(pwd.stdout).toContain(root.split("/").pop());
  });

  it("reports a non-zero exit as a success with exitCode, and says so", async () => {
    await writeFile(join(root, "a.txt"), "x");
    const tool = createRunCommandTool({ root, allowedCommands: ["ls"] });
    const result = await tool.run({ command: ["ls", "missing-file"] });
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.data.exitCode).not.toBe(0);
    expect(result.data.stderr.length).toBeGreaterThan(0);
    expect(tool.renderResult(result)).toMatch(/the command ran and reported a failure/);
  });

  it("splits a plain string, refuses one with shell metacharacters", async () => {
    expect(splitCommandString("git  status --short")).toEqual(["git", "status", "--short"]);
    const tool = createRunCommandTool({ root, allowedCommands: ["echo", "ls"] });
    expect((await success(tool.run({ command: "echo a b" }))).stdout).toBe("a b");
    expect((await success(tool.run({ command: ["echo a b"] }))).stdout).toBe("a b");
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
      expect(error.code, attack).toBe("BLOCKED");
      expect(error.hint ?? "", attack).toMatch(/array/);
    }
    expect((await failure(tool.run({ command: ["ls; rm -rf /"] }))).code).toBe("BLOCKED");
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
    expect((await success(byPath.run({ command: ["echo", "ok"] }))).stdout).toBe("ok");
    expect((await success(byPath.run({ command: ["/bin/echo", "ok"] }))).stdout).toBe("ok");
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
      expect(data.stdout).not.toContain("leak-");
      expect(data.stdout).toContain("LANG=C.UTF-8");
      expect(data.stdout).toContain("CI=1");
      expect(data.stdout).not.toMatch(/^HOME=/m);
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
      expect((await success(tool.run({ command: ["echo", "real"], cwd: "bin" }))).stdout).toBe(
        "real",
      );
    } finally {
      process.env.PATH = saved;
    }
  });

  it("caps large output head + tail with an omitted-lines marker", async () => {
    const tool = createRunCommandTool({
      root,
      allowedCommands: ["seq"],
      maxHeadLines: 5,
      maxTailLines: 5,
    });
    const data = await success(tool.run({ command: ["seq", "1", "100000"] }));
    expect(data.truncated).toBe(true);
    const lines = data.stdout.split("\n");
    expect(lines.slice(0, 5)).toEqual(["1", "2", "3", "4", "5"]);
    expect(lines.slice(-5)).toEqual(["99996", "99997", "99998", "99999", "100000"]);
    expect(lines[5]).toMatch(/^…\[truncated: [\d,]+ more lines — /);
    expect(data.stdoutBytes).toBeGreaterThan(500_000);
    expect(data.stdout.length).toBeLessThan(2_000);
  });

  it("kills the whole process group on timeout", async () => {
    const pids = join(root, "pids.txt");
    const tool = createRunCommandTool({ root, allowedCommands: ["sh"], killGraceMs: 500 });
    const started = Date.now();
    const error = await failure(
      tool.run({
        command: [
          "sh",
          "-c",
          `sleep 30 & echo $! >> pids.txt; sleep 30 & echo $! >> pids.txt; echo started; wait`,
        ],
        timeout_ms: 500,
      }),
    );
    expect(error.code).toBe("TIMEOUT");
    expect(error.message).toContain("started");
    expect(Date.now() - started).toBeLessThan(5_000);
    const recorded = (await readFile(pids, "utf8")).trim().split("\n").map(Number);
    expect(recorded).toHaveLength(2);
    await waitFor(() => recorded.every((pid) => !isAlive(pid)));
  });

  it("kills the whole process group on abort", async () => {
    const pids = join(root, "pids.txt");
    const tool = createRunCommandTool({ root, allowedCommands: ["sh"], killGraceMs: 500 });
    const controller = new AbortController();
    const running = tool.run(
      { command: ["sh", "-c", "echo $$ >> pids.txt; sleep 30 & echo $! >> pids.txt; sleep 30"] },
      { signal: controller.signal },
    );
    await waitFor(
      async () => (await readFile(pids, "utf8").catch(() => "")).trim().split("\n").length >= 2,
    );
    const recorded = (await readFile(pids, "utf8")).trim().split("\n").map(Number);
    expect(recorded.every(isAlive)).toBe(true);
    controller.abort();
    expect((await failure(running)).code).toBe("ABORTED");
    await waitFor(() => recorded.every((pid) => !isAlive(pid)));
  });

  it("stops background jobs left behind by a finished command", async () => {
    const tool = createRunCommandTool({ root, allowedCommands: ["sh"], killGraceMs: 200 });
    const data = await success(
      tool.run({ command: ["sh", "-c", "sleep 30 >/dev/null 2>&1 & echo $! > pid.txt"] }),
    );
    expect(data.exitCode).toBe(0);
    const pid = Number((await readFile(join(root, "pid.txt"), "utf8")).trim());
    await waitFor(() => !isAlive(pid));
  });

  it("takes the root from a Node workspace, and refuses a seam without a directory on disk", async () => {
    const workspace = createWorkspace({ fileSystem: createNodeFileSystem({ root }) });
    const tool = createRunCommandTool({ workspace, allowedCommands: ["echo"] });
    expect((await success(tool.run({ command: ["echo", "ok"] }))).stdout).toBe("ok");
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
