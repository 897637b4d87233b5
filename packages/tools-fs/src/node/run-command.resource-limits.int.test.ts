// Issue 27, finding 7: the sandbox confines files and network, and now resources too: processes,
// memory, file size and the size of /tmp. Real processes in real bubblewrap.
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bubblewrapStatus } from "./run-command/bubblewrap-status.js";
import type { ResourceLimits } from "./run-command/resource-limits.js";
import { createRunCommandTool } from "./run-command.js";

const sandboxWorks = process.platform === "linux" && bubblewrapStatus().available;
const MIB = 1_048_576;

let root: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), "agentool-run-limits-")));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function runCommand(allowedCommands: string[], limits?: Partial<ResourceLimits>) {
  return createRunCommandTool({
    root,
    sandbox: "bubblewrap",
    allowedCommands,
    killGraceMs: 200,
    ...(limits === undefined ? {} : { limits }),
  });
}

function output(outcome: Awaited<ReturnType<ReturnType<typeof runCommand>["run"]>>): string {
  return outcome.success
    ? `${outcome.data.stdout.text}${outcome.data.stdout.tail}${outcome.data.stderr.text}${outcome.data.stderr.tail}`
    : outcome.error.message;
}

describe.skipIf(!sandboxWorks)("run_command's resource limits (sandbox: bubblewrap)", () => {
  it("stops a fork bomb-ish sh at the process limit", async () => {
    const run = runCommand(["sh"], { processes: 40 });
    const outcome = await run.run({
      command: [
        "sh",
        "-c",
        "n=0; while [ $n -lt 200 ]; do sleep 3 & n=$((n+1)); done; wait; echo all-started",
      ],
      timeout_ms: 20_000,
    });
    expect(outcome.success).toBe(true);
    expect(output(outcome)).toMatch(/fork|resource temporarily unavailable/i);
  });

  it("refuses a file in /tmp bigger than the tmp size", async () => {
    const run = runCommand(["dd"], { tmpBytes: 8 * MIB, fileBytes: 64 * MIB });
    const outcome = await run.run({
      command: ["dd", "if=/dev/zero", "of=/tmp/big", "bs=1M", "count=20"],
    });
    expect(outcome.success && outcome.data.exit_code).not.toBe(0);
    expect(output(outcome)).toMatch(/no space left/i);
  });

  it("stops a file bigger than the file size cap, in the workspace too", async () => {
    const run = runCommand(["dd"], { fileBytes: 4 * MIB });
    const outcome = await run.run({
      command: ["dd", "if=/dev/zero", "of=big", "bs=1M", "count=20"],
    });
    expect(outcome.success && outcome.data.exit_code === 0).toBe(false);
  });

  it("stops an allocation past the memory cap", async () => {
    const run = runCommand(["node"], { memoryBytes: 1_024 * MIB });
    const outcome = await run.run({
      command: [
        "node",
        "-e",
        "const kept = []; for (let i = 0; i < 40; i++) kept.push(Buffer.alloc(64e6, 1)); console.log('allocated', kept.length);",
      ],
      timeout_ms: 60_000,
    });
    expect(outcome.success && outcome.data.exit_code === 0).toBe(false);
    expect(output(outcome)).not.toContain("allocated 40");
  });

  it("still runs ordinary commands under the default limits", async () => {
    const run = runCommand(["node", "sh"]);
    const node = await run.run({ command: ["node", "-e", "console.log(6 * 7)"] });
    expect(node.success && node.data.exit_code).toBe(0);
    expect(output(node)).toContain("42");
    const shell = await run.run({
      command: [
        "sh",
        "-c",
        "for i in 1 2 3 4 5 6 7 8; do true & done; wait; head -c 1000000 /dev/zero > /tmp/x && wc -c < /tmp/x",
      ],
    });
    expect(shell.success && shell.data.exit_code).toBe(0);
    expect(output(shell)).toContain("1000000");
  });
});
