import { execFileSync } from "node:child_process";
import { chownSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createGitTools } from "./create-git-tools.js";
import { checkOwnership } from "./internal/ownership.js";
import { createTemporaryRepository, type TemporaryRepository } from "./test-support/repository.js";

// Changing a file's owner to another user needs root; elsewhere the suite is skipped.
const isRoot = process.getuid?.() === 0;
const NOBODY = 65534;

const repositories: TemporaryRepository[] = [];
const homes: string[] = [];
const savedEnvironment = { HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME };

/** A fresh, empty global config for this test: the host's own ~/.gitconfig stays out of it. */
function temporaryHome(safeDirectories: readonly string[] = []): string {
  const home = mkdtempSync(join(tmpdir(), "agentool-git-home-"));
  homes.push(home);
  const lines = safeDirectories.map((entry) => `\tdirectory = ${entry}\n`).join("");
  writeFileSync(join(home, ".gitconfig"), lines.length > 0 ? `[safe]\n${lines}` : "");
  process.env.HOME = home;
  return home;
}

beforeEach(() => {
  delete process.env.XDG_CONFIG_HOME;
  temporaryHome();
});

afterEach(() => {
  for (const item of repositories.splice(0)) item.remove();
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
  for (const [name, value] of Object.entries(savedEnvironment)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

/** A repository with a change in its working tree, handed to `nobody` (all of it, or only `.git`). */
function foreignRepository(scope: "all" | "git-directory" = "all") {
  const repo = createTemporaryRepository();
  repositories.push(repo);
  repo.commit("notes.txt", "first\n", "notes");
  repo.write("notes.txt", "changed\n");
  const target = scope === "all" ? repo.root : join(repo.root, ".git");
  execFileSync("chown", ["-R", String(NOBODY), target]);
  const tools = new Map(
    createGitTools({
      root: repo.root,
      mode: "read-write",
      author: { name: "Agent", email: "agent@example.com" },
    }).map((tool) => [tool.name, tool]),
  );
  const call = async (name: string, input: unknown) => {
    const tool = tools.get(name);
    if (tool === undefined) throw new Error(`no ${name}`);
    return tool.run(input);
  };
  return { repo, call };
}

const EVERY_TOOL = [
  ["git_status", {}],
  ["git_diff", {}],
  ["git_log", { limit: 5 }],
  ["git_show", { revision: "HEAD" }],
  ["git_branch", { action: "list" }],
  ["git_branch", { action: "create", name: "topic" }],
  ["git_add", { files: ["notes.txt"] }],
  ["git_commit", { message: "planted" }],
] as const;

describe.runIf(isRoot)("a repository owned by another user (git's dubious ownership)", () => {
  it("control: plain git refuses it (so the test means something)", () => {
    const { repo } = foreignRepository();
    expect(() =>
      execFileSync("git", ["status"], { cwd: repo.root, stdio: "pipe", env: process.env }),
    ).toThrow(/dubious ownership/);
  });

  it("every git tool refuses with PERMISSION_DENIED and the safe.directory hint", async () => {
    const { repo, call } = foreignRepository();
    for (const [name, input] of EVERY_TOOL) {
      const result = await call(name, input);
      const label = `${name} ${JSON.stringify(input)}`;
      expect(result, label).toMatchObject({
        success: false,
        error: { code: "PERMISSION_DENIED", hint: expect.stringContaining("safe.directory") },
      });
    }
    expect(repo.git("-c", `safe.directory=${repo.root}`, "log", "--format=%s")).not.toContain(
      "planted",
    );
  });

  it("refuses when only .git belongs to another user", async () => {
    const { call } = foreignRepository("git-directory");
    const result = await call("git_status", {});
    expect(result).toMatchObject({ success: false, error: { code: "PERMISSION_DENIED" } });
  });

  it("works once the host marks the path safe in its global config", async () => {
    const { repo, call } = foreignRepository();
    temporaryHome([repo.root]);
    for (const [name, input] of EVERY_TOOL) {
      const result = await call(name, input);
      expect(result, `${name} ${JSON.stringify(input)}`).toMatchObject({ success: true });
    }
    expect(repo.git("-c", `safe.directory=${repo.root}`, "log", "-1", "--format=%s").trim()).toBe(
      "planted",
    );
  });

  it("honours '*', and an empty entry resets the list as git does", async () => {
    const { call } = foreignRepository();
    temporaryHome(["*"]);
    expect(await call("git_status", {})).toMatchObject({ success: true });
    temporaryHome(["*", ""]);
    expect(await call("git_status", {})).toMatchObject({
      success: false,
      error: { code: "PERMISSION_DENIED" },
    });
  });

  it("a safe.directory for another path, or in the repository's own config, does not count", async () => {
    const { repo, call } = foreignRepository();
    temporaryHome([join(repo.base, "elsewhere"), `${repo.root}-evil`]);
    repo.git("-c", "safe.directory=*", "config", "safe.directory", "*");
    expect(await call("git_status", {})).toMatchObject({
      success: false,
      error: { code: "PERMISSION_DENIED" },
    });
  });

  it("a repository of its own user still works (chown back)", async () => {
    const { repo, call } = foreignRepository();
    execFileSync("chown", ["-R", "0", repo.root]);
    chownSync(repo.root, 0, 0);
    expect(await call("git_status", {})).toMatchObject({ success: true });
  });
});

describe.runIf(isRoot)("the owner git accepts, special cases included", () => {
  it("as root, the uid sudo recorded in SUDO_UID is accepted, as git accepts it", async () => {
    const { repo } = foreignRepository();
    const root = realpathSync(repo.root);
    const environment = { HOME: process.env.HOME };
    await expect(
      checkOwnership(root, { euid: 0, environment: { ...environment, SUDO_UID: String(NOBODY) } }),
    ).resolves.toBeUndefined();
    await expect(
      checkOwnership(root, { euid: 0, environment: { ...environment, SUDO_UID: "1000" } }),
    ).rejects.toMatchObject({ failure: { error: { code: "PERMISSION_DENIED" } } });
  });

  it("a root-owned repository is someone else's for an ordinary user", async () => {
    const repo = createTemporaryRepository();
    repositories.push(repo);
    const root = realpathSync(repo.root);
    await expect(
      checkOwnership(root, { euid: 1000, environment: { HOME: process.env.HOME } }),
    ).rejects.toMatchObject({ failure: { error: { code: "PERMISSION_DENIED" } } });
    await expect(checkOwnership(root, { euid: 0, environment: {} })).resolves.toBeUndefined();
  });
});
