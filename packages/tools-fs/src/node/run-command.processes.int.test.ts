// run_command's processes: capture files outside the root through timeouts and aborts, and the
// whole process group stopped (sleeping children, background jobs). Several real processes each.
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RunCommandToolData } from "./run-command/run-command-data.js";
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

describe("createRunCommandTool: processes", () => {
  it.skipIf(process.platform !== "linux")(
    "captures output in private files outside the root, removed after success, timeout and abort",
    async () => {
      // On the host: inside the sandbox the capture directory is out of sight (a private /tmp).
      const tool = createRunCommandTool({
        root,
        allowedCommands: [process.execPath],
        killGraceMs: 100,
        sandbox: "none",
      });
      const probe =
        "const fs = require('fs'); const file = fs.readlinkSync('/proc/self/fd/1'); const dir = require('path').dirname(file); console.log(JSON.stringify({ file, dir, fileMode: fs.statSync(file).mode & 0o777, dirMode: fs.statSync(dir).mode & 0o777 }));";
      const data = await success(tool.run({ command: [process.execPath, "-e", probe] }));
      const seen = JSON.parse(data.stdout.text) as {
        file: string;
        dir: string;
        fileMode: number;
        dirMode: number;
      };
      expect(seen.fileMode).toBe(0o600);
      expect(seen.dirMode).toBe(0o700);
      expect(seen.file.startsWith(`${root}/`)).toBe(false);
      await expect(readFile(seen.file)).rejects.toThrow();
      // Removed after a timeout and after an abort too.
      const marker = join(root, "dir.txt");
      const record = `require('fs').writeFileSync(${JSON.stringify(marker)}, require('path').dirname(require('fs').readlinkSync('/proc/self/fd/1'))); setTimeout(() => {}, 30000);`;
      const timedOut = await failure(
        tool.run({ command: [process.execPath, "-e", record], timeout_ms: 1_000 }),
      );
      expect(timedOut.code).toBe("TIMEOUT");
      const afterTimeout = await readFile(marker, "utf8");
      await expect(readFile(join(afterTimeout, "stdout"))).rejects.toThrow();
      await rm(marker);
      const controller = new AbortController();
      const running = tool.run(
        { command: [process.execPath, "-e", record] },
        { signal: controller.signal },
      );
      await waitFor(async () => (await readFile(marker, "utf8").catch(() => "")).length > 0);
      const duringAbort = await readFile(marker, "utf8");
      controller.abort();
      expect((await failure(running)).code).toBe("ABORTED");
      await waitFor(async () => {
        try {
          await readFile(join(duringAbort, "stdout"));
          return false;
        } catch {
          return true;
        }
      });
    },
  );

  it.skipIf(process.platform !== "linux")(
    "never puts its capture files inside the workspace, even when TMPDIR is inside it",
    async () => {
      const inside = join(root, "tmp");
      await mkdir(inside);
      const saved = process.env.TMPDIR;
      process.env.TMPDIR = inside;
      try {
        const tool = createRunCommandTool({ root, allowedCommands: [process.execPath] });
        const data = await success(
          tool.run({
            command: [
              process.execPath,
              "-e",
              "process.stdout.write(require('fs').readlinkSync('/proc/self/fd/1'))",
            ],
          }),
        );
        expect(data.stdout.text.startsWith(`${root}/`)).toBe(false);
        expect(data.stdout.text).toMatch(/agentool-run-[^/]+\/stdout$|^pipe:/);
      } finally {
        if (saved === undefined) delete process.env.TMPDIR;
        else process.env.TMPDIR = saved;
      }
    },
  );

  it("kills the whole process group on timeout", async () => {
    const pids = join(root, "pids.txt");
    const tool = createRunCommandTool({
      root,
      allowedCommands: ["sh"],
      killGraceMs: 500,
      sandbox: "none",
    });
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
    const tool = createRunCommandTool({
      root,
      allowedCommands: ["sh"],
      killGraceMs: 500,
      sandbox: "none",
    });
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
    const tool = createRunCommandTool({
      root,
      allowedCommands: ["sh"],
      killGraceMs: 200,
      sandbox: "none",
    });
    const data = await success(
      tool.run({ command: ["sh", "-c", "sleep 30 >/dev/null 2>&1 & echo $! > pid.txt"] }),
    );
    expect(data.exit_code).toBe(0);
    const pid = Number((await readFile(join(root, "pid.txt"), "utf8")).trim());
    await waitFor(() => !isAlive(pid));
  });
});
