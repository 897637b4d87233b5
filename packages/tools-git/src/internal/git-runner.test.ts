import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { GIT_NEUTRAL_CONFIG } from "@agentool/contract/policy";
import { afterEach, describe, expect, it } from "vitest";
import { createTemporaryRepository, type TemporaryRepository } from "../test-support/repository.js";
import { createGitRunner } from "./git-runner.js";

const repositories: TemporaryRepository[] = [];
afterEach(() => {
  for (const item of repositories.splice(0)) item.remove();
});

const OUTPUT_KEYS: [string, string][] = [
  ["protocol.allow", "never"],
  ["color.ui", "false"],
  ["color.diff", "false"],
  ["color.status", "false"],
  ["color.branch", "false"],
  ["core.quotePath", "false"],
  ["log.showRoot", "true"],
];

/** A repository whose .git/config sets every neutral key (and hooksPath) to a hostile value. */
function hostileRepository(): TemporaryRepository {
  const repo = createTemporaryRepository();
  repositories.push(repo);
  const keys = [...GIT_NEUTRAL_CONFIG, ...OUTPUT_KEYS].map(([key]) => key);
  const sections = [...keys, "core.hooksPath"].map((key) => {
    const parts = key.split(".");
    const name = parts.pop() as string;
    const [section, ...rest] = parts;
    const header = rest.length === 0 ? `[${section}]` : `[${section} "${rest.join(".")}"]`;
    return `${header}\n\t${name} = hostile ${key}\n`;
  });
  appendFileSync(join(repo.root, ".git", "config"), sections.join(""));
  return repo;
}

/** The effective value of every key git sees through the runner: the last one `--list` gives. */
async function effectiveConfig(
  runner: ReturnType<typeof createGitRunner>,
): Promise<Map<string, string>> {
  const result = await runner.run(["config", "--null", "--list"]);
  expect(result.exitCode, result.stderr).toBe(0);
  const values = new Map<string, string>();
  for (const record of result.stdout.split("\0")) {
    if (record.length === 0) continue;
    const newline = record.indexOf("\n");
    const key = newline === -1 ? record : record.slice(0, newline);
    values.set(key.toLowerCase(), newline === -1 ? "" : record.slice(newline + 1));
  }
  return values;
}

describe("createGitRunner's neutral configuration", () => {
  it("gives every git it starts every key of GIT_NEUTRAL_CONFIG, over the repository's own", async () => {
    const repo = hostileRepository();
    const runner = createGitRunner({ root: repo.root, runHooks: false });
    expect(GIT_NEUTRAL_CONFIG.length).toBeGreaterThan(10);
    const config = await effectiveConfig(runner);
    for (const [key, value] of GIT_NEUTRAL_CONFIG) {
      expect(config.get(key.toLowerCase()), key).toBe(value);
    }
    expect(config.get("core.hookspath")).toBe("/dev/null");
  });

  it("keeps its own output keys and protocol.allow=never", async () => {
    const repo = hostileRepository();
    const runner = createGitRunner({ root: repo.root, runHooks: false });
    const config = await effectiveConfig(runner);
    for (const [key, value] of OUTPUT_KEYS) {
      expect(config.get(key.toLowerCase()), key).toBe(value);
    }
  });

  it("leaves the repository's hooksPath alone when runHooks is set", async () => {
    const repo = hostileRepository();
    const runner = createGitRunner({ root: repo.root, runHooks: true });
    const config = await effectiveConfig(runner);
    expect(config.get("core.hookspath")).toBe("hostile core.hooksPath");
    expect(config.get("core.fsmonitor")).toBe("false");
  });
});
