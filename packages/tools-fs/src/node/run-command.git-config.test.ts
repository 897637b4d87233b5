// run_command's git gets the contract's git-neutral configuration, the same as every git_* tool:
// a hostile repository's .git/config cannot make an allowed `git` run a program (issue 26).
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GIT_NEUTRAL_CONFIG, gitNeutralConfig } from "@agentool/contract/policy";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RunCommandToolData } from "./run-command/run-command-data.js";
import { createRunCommandTool } from "./run-command.js";

let root: string;
let outside: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), "agentool-run-git-")));
  outside = await realpath(await mkdtemp(join(tmpdir(), "agentool-run-git-outside-")));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

function git(...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", HOME: root, GIT_CONFIG_NOSYSTEM: "1" },
    encoding: "utf8",
  }).trim();
}

type Outcome =
  | { success: true; data: RunCommandToolData }
  | { success: false; error: { code: string; message: string } };

describe("run_command's git (sandbox: none)", () => {
  it("does not run a signature program a repository's config names (gpg.ssh.program via log.showSignature)", async () => {
    git("init", "-q");
    git("commit", "-q", "--allow-empty", "-m", "first");
    // A commit carrying an SSH signature: `git log` verifies it with gpg.ssh.program.
    const tree = git("rev-parse", "HEAD^{tree}");
    const commit = [
      `tree ${tree}`,
      "author t <t@t> 1700000000 +0000",
      "committer t <t@t> 1700000000 +0000",
      "gpgsig -----BEGIN SSH SIGNATURE-----",
      " U1NIU0lHAAAAAQ==",
      " -----END SSH SIGNATURE-----",
      "",
      "signed",
      "",
    ].join("\n");
    await writeFile(join(outside, "commit"), commit);
    git("update-ref", "HEAD", git("hash-object", "-t", "commit", "-w", join(outside, "commit")));
    const marker = join(outside, "ran");
    const program = join(outside, "program.sh");
    await writeFile(program, `#!/bin/sh\ntouch '${marker}'\n`);
    await chmod(program, 0o755);
    await writeFile(join(outside, "allowed-signers"), "");
    git("config", "gpg.format", "ssh");
    git("config", "gpg.ssh.program", program);
    git("config", "gpg.ssh.allowedSignersFile", join(outside, "allowed-signers"));
    git("config", "log.showSignature", "true");
    // The repository does run the program for a plain git (the hole is real here).
    git("log", "-1");
    expect(existsSync(marker)).toBe(true);
    await rm(marker);

    const run = createRunCommandTool({ root, sandbox: "none", allowedCommands: ["git"] });
    const outcome = (await run.run({ command: ["git", "log", "-1"] })) as Outcome;
    expect(outcome.success).toBe(true);
    expect(existsSync(marker)).toBe(false);
  });

  it("hands git every key of the contract's neutral configuration, hooks off, secrets binary", async () => {
    git("init", "-q");
    // The repository tries to set them all otherwise.
    for (const [key] of GIT_NEUTRAL_CONFIG) git("config", key, "repository-value");
    const run = createRunCommandTool({
      root,
      sandbox: "none",
      allowedCommands: ["git"],
      // `git config` is refused by the default policy; this test reads git's view of its config.
      argumentPolicy: () => undefined,
    });
    const expected = gitNeutralConfig({ extra: [["core.attributesFile", "(a file)"]] });
    for (const [key, value] of expected) {
      const outcome = (await run.run({ command: ["git", "config", "--get", key] })) as Outcome;
      expect(outcome.success, key).toBe(true);
      if (!outcome.success) continue;
      const read = outcome.data.stdout.text;
      if (key === "core.attributesFile") expect(read, key).toMatch(/attributes$/);
      else expect(read, key).toBe(value);
    }
  });
});
