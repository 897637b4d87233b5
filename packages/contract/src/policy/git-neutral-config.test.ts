import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  GIT_NEUTRAL_CONFIG,
  GIT_NO_HOOKS_PATH,
  gitConfigEnvironment,
  gitNeutralConfig,
} from "./git-neutral-config.js";

const repository = mkdtempSync(join(tmpdir(), "agentool-neutral-"));
afterAll(() => rmSync(repository, { recursive: true, force: true }));

describe("the git-neutral configuration", () => {
  it("covers every config key a repository could use to run a program", () => {
    const keys = new Set(GIT_NEUTRAL_CONFIG.map(([key]) => key));
    for (const key of [
      "core.fsmonitor",
      "core.pager",
      "core.sshCommand",
      "diff.external",
      "gpg.program",
      "gpg.ssh.program",
      "log.showSignature",
      "protocol.ext.allow",
    ]) {
      expect(keys.has(key), key).toBe(true);
    }
  });

  it("turns hooks off unless asked, and puts a spawner's extras last", () => {
    expect(gitNeutralConfig()).toContainEqual(["core.hooksPath", GIT_NO_HOOKS_PATH]);
    expect(gitNeutralConfig({ hooks: true }).some(([key]) => key === "core.hooksPath")).toBe(false);
    expect(gitNeutralConfig({ extra: [["color.ui", "false"]] }).at(-1)).toEqual([
      "color.ui",
      "false",
    ]);
  });

  it("git itself reads every entry from the environment, over the repository's config", () => {
    spawnSync("git", ["init", "-q", repository]);
    spawnSync("git", ["-C", repository, "config", "log.showSignature", "true"]);
    spawnSync("git", ["-C", repository, "config", "core.pager", "less"]);
    const entries = gitNeutralConfig();
    const environment = { ...process.env, ...gitConfigEnvironment(entries) };
    for (const [key, value] of entries) {
      const read = spawnSync("git", ["-C", repository, "config", "--get", key], {
        env: environment,
        encoding: "utf8",
      });
      expect(read.stdout.replace(/\n$/, ""), key).toBe(value);
    }
  });
});
