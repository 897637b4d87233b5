// Issue 27, finding 1: a sandboxed command must not plant a git hook (or any file git runs or
// reads config from) that the user's own git runs later on the host. Real tools, real git, real
// bubblewrap: the attack as a prompt-injected model would send it.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AnyTool } from "@agentool/contract";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createNodeFsTools } from "./create-node-fs-tools.js";
import { bubblewrapStatus } from "./run-command/bubblewrap-status.js";
import { createRunCommandTool } from "./run-command.js";

const sandboxWorks = process.platform === "linux" && bubblewrapStatus().available;
const PAYLOAD = "#!/bin/sh\necho planted > /tmp/agentool-hook-ran\n";

let root: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), "agentool-run-hooks-")));
  execFileSync("git", ["init", "-q"], { cwd: root, env: { PATH: process.env.PATH ?? "" } });
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function hooks(): Record<string, string> {
  const directory = join(root, ".git", "hooks");
  const listing: Record<string, string> = {};
  for (const name of readdirSync(directory)) {
    listing[name] = readFileSync(join(directory, name), "utf8");
  }
  return listing;
}

function fsTool(name: string): AnyTool {
  const tools = createNodeFsTools({ root, mode: "read-write" });
  const found = tools.find((candidate) => candidate.name === name);
  if (found === undefined) throw new Error(`no ${name}`);
  return found;
}

function runCommand(allowedCommands: string[]) {
  return createRunCommandTool({ root, sandbox: "bubblewrap", allowedCommands, killGraceMs: 200 });
}

describe.skipIf(!sandboxWorks)("run_command and git's control files (sandbox: bubblewrap)", () => {
  it("does not let git init --template install a hook written with copy_file and write_file", async () => {
    const before = hooks();
    const copied = await fsTool("copy_file").run({
      source: ".git/hooks/pre-commit.sample",
      destination: "tpl/hooks/pre-commit",
    });
    expect(copied.success).toBe(true);
    const written = await fsTool("write_file").run({
      path: "tpl/hooks/pre-commit",
      content: PAYLOAD,
    });
    expect(written.success).toBe(true);
    expect(statSync(join(root, "tpl/hooks/pre-commit")).mode & 0o111).not.toBe(0);
    const run = runCommand(["git"]);
    const outcome = await run.run({ command: ["git", "init", "--template=tpl"] });
    expect(outcome.success && outcome.data.exit_code === 0).toBe(false);
    if (!outcome.success) expect(outcome.error.message).toContain("--template");
    expect(hooks()).toEqual(before);
    // The option also fails in the sandbox when a host's own policy lets it through.
    const permissive = createRunCommandTool({
      root,
      sandbox: "bubblewrap",
      allowedCommands: ["git"],
      argumentPolicy: () => undefined,
    });
    const direct = await permissive.run({ command: ["git", "init", "--template=tpl"] });
    expect(direct.success && direct.data.exit_code === 0).toBe(false);
    expect(hooks()).toEqual(before);
  });

  it("does not let an allowed cp write into .git/hooks or git's config", async () => {
    await fsTool("write_file").run({ path: "payload", content: PAYLOAD });
    const before = hooks();
    const config = readFileSync(join(root, ".git", "config"), "utf8");
    const run = runCommand(["cp"]);
    const refused = await run.run({ command: ["cp", "payload", ".git/hooks/pre-commit"] });
    expect(refused.success).toBe(false);
    if (!refused.success) expect(refused.error.message).toContain(".git");
    // Past the argument policy (a host that replaced it), the sandbox still holds.
    const permissive = createRunCommandTool({
      root,
      sandbox: "bubblewrap",
      allowedCommands: ["cp"],
      argumentPolicy: () => undefined,
    });
    for (const destination of [".git/hooks/pre-commit", ".git/config", ".git/info/attributes"]) {
      const outcome = await permissive.run({ command: ["cp", "payload", destination] });
      expect(outcome.success && outcome.data.exit_code).not.toBe(0);
    }
    expect(hooks()).toEqual(before);
    expect(readFileSync(join(root, ".git", "config"), "utf8")).toBe(config);
  });

  it("still lets git add and git commit work inside the sandbox", async () => {
    await fsTool("write_file").run({ path: "notes.md", content: "hello\n" });
    const run = createRunCommandTool({
      root,
      sandbox: "bubblewrap",
      allowedCommands: ["git"],
      environment: {
        GIT_AUTHOR_NAME: "t",
        GIT_AUTHOR_EMAIL: "t@t",
        GIT_COMMITTER_NAME: "t",
        GIT_COMMITTER_EMAIL: "t@t",
      },
    });
    const added = await run.run({ command: ["git", "add", "notes.md"] });
    expect(added.success && added.data.exit_code).toBe(0);
    const committed = await run.run({ command: ["git", "commit", "-q", "-m", "notes"] });
    expect(committed.success && committed.data.exit_code, JSON.stringify(committed)).toBe(0);
    const log = execFileSync("git", ["log", "--format=%s"], { cwd: root, encoding: "utf8" });
    expect(log.trim()).toBe("notes");
  });
});
