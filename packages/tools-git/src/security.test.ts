import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createGitTools } from "./create-git-tools.js";
import { createTemporaryRepository, type TemporaryRepository } from "./test-support/repository.js";

const repositories: TemporaryRepository[] = [];
afterEach(() => {
  for (const item of repositories.splice(0)) item.remove();
});

const HOOKS = [
  "pre-commit",
  "prepare-commit-msg",
  "commit-msg",
  "post-commit",
  "post-index-change",
  "reference-transaction",
  "pre-auto-gc",
  "post-checkout",
  "post-rewrite",
];

/** A repository whose config, attributes and hooks all try to run a script that writes a marker. */
function hostileRepository() {
  const repo = createTemporaryRepository();
  repositories.push(repo);
  repo.commit("notes.txt", "first\n", "notes");
  const marker = join(repo.base, "marker");
  const script = join(repo.base, "evil.sh");
  writeFileSync(script, `#!/bin/sh\necho "$0 $*" >> '${marker}'\ncat\n`);
  chmodSync(script, 0o755);
  const config: [string, string][] = [
    ["core.fsmonitor", `${script} fsmonitor`],
    ["core.pager", `${script} pager`],
    ["core.editor", `${script} editor`],
    ["core.sshCommand", `${script} ssh`],
    ["core.askPass", `${script} askpass`],
    ["credential.helper", `!${script} credential`],
    ["diff.external", `${script} external`],
    ["diff.evil.textconv", `${script} textconv`],
    ["diff.evil.command", `${script} diff-command`],
    ["filter.evil.clean", `${script} clean`],
    ["filter.evil.smudge", `${script} smudge`],
    ["filter.evil.process", `${script} process`],
    ["filter.evil.required", "true"],
    ["gpg.program", `${script} gpg`],
    ["commit.gpgSign", "true"],
    ["log.showSignature", "true"],
    ["color.ui", "always"],
  ];
  for (const [key, value] of config) repo.git("config", key, value);
  writeFileSync(join(repo.root, ".gitattributes"), "* diff=evil filter=evil\n");
  for (const hook of HOOKS) {
    const path = join(repo.root, ".git", "hooks", hook);
    writeFileSync(path, `#!/bin/sh\necho "hook ${hook}" >> '${marker}'\n`);
    chmodSync(path, 0o755);
  }
  return { repo, marker };
}

describe("a hostile repository cannot run code through the tools", () => {
  it("control: plain git does run the repository's commands (so the test means something)", () => {
    const { repo, marker } = hostileRepository();
    repo.write("notes.txt", "changed\n");
    try {
      execFileSync("git", ["add", "notes.txt"], { cwd: repo.root, stdio: "ignore" });
    } catch {
      // A failing filter still proves it ran.
    }
    expect(existsSync(marker)).toBe(true);
  });

  it("no marker across status, diff, log, show, add, commit and branch", async () => {
    const { repo, marker } = hostileRepository();
    const tools = createGitTools({
      root: repo.root,
      mode: "read-write",
      author: { name: "Agent", email: "agent@example.com" },
    });
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    const call = async (name: string, input: unknown) => {
      const result = await byName.get(name)?.run(input);
      expect(result?.success, `${name} ${JSON.stringify(result)}`).toBe(true);
      return result;
    };
    repo.write("notes.txt", "second\n");
    repo.write("fresh.txt", "fresh\n");
    await call("git_status", {});
    await call("git_diff", {});
    await call("git_diff", { ref: "HEAD" });
    await call("git_add", { files: ["notes.txt", "fresh.txt", ".gitattributes"] });
    await call("git_diff", { staged: true });
    const commit = await call("git_commit", { message: "hostile commit" });
    await call("git_log", { limit: 5 });
    await call("git_show", { revision: "HEAD" });
    await call("git_show", { revision: "HEAD", path: "notes.txt" });
    await call("git_branch", { action: "list" });
    await call("git_branch", { action: "create", name: "topic" });
    repo.write("notes.txt", "third\n");
    await call("git_commit", { message: "all of it" });
    await call("git_status", {});
    expect(existsSync(marker) ? readFileSync(marker, "utf8") : "").toBe("");
    // The filter really was off: the content went in unchanged, uncoloured output parsed.
    expect(repo.git("show", "HEAD:notes.txt")).toBe("third\n");
    expect(commit?.success && (commit.data as { message: string }).message).toBe("hostile commit");
  });

  it("with runHooks: true the hooks run (and only the hooks)", async () => {
    const { repo, marker } = hostileRepository();
    const tools = createGitTools({ root: repo.root, mode: "read-write", runHooks: true });
    const commit = tools.find((tool) => tool.name === "git_commit");
    repo.write("notes.txt", "hooked\n");
    const result = await commit?.run({ message: "with hooks", files: ["notes.txt"] });
    expect(result?.success, JSON.stringify(result)).toBe(true);
    const text = readFileSync(marker, "utf8");
    expect(text).toContain("hook pre-commit");
    expect(text).toContain("hook post-commit");
    expect(text).not.toMatch(/evil\.sh/);
  });

  it("a hostile core.worktree cannot move the working tree", async () => {
    const repo = createTemporaryRepository();
    repositories.push(repo);
    repo.git("config", "core.worktree", repo.base);
    const [status] = createGitTools({ root: repo.root });
    const result = await status?.run({});
    expect(result).toMatchObject({ success: true, data: { clean: true } });
  });
});

describe("a hostile model cannot escape or inject options", () => {
  it("git_add refuses paths outside the repository", async () => {
    const repo = createTemporaryRepository();
    repositories.push(repo);
    writeFileSync(join(repo.base, "secret.txt"), "secret");
    execFileSync("mkdir", ["-p", `${repo.root}-evil`]);
    writeFileSync(`${repo.root}-evil/x.txt`, "x");
    execFileSync("ln", ["-s", join(repo.base, "secret.txt"), join(repo.root, "link.txt")]);
    const add = createGitTools({ root: repo.root, mode: "read-write" }).find(
      (tool) => tool.name === "git_add",
    );
    for (const file of [
      "../../.kube/config",
      "../secret.txt",
      join(repo.base, "secret.txt"),
      `${repo.root}-evil/x.txt`,
      "../repository-evil/x.txt",
      "link.txt",
      ".git/config",
    ]) {
      const result = await add?.run({ files: [file] });
      expect(result?.success, file).toBe(false);
      if (result && !result.success)
        expect(["INVALID_PATH", "BLOCKED"]).toContain(result.error.code);
    }
    rmSync(`${repo.root}-evil`, { recursive: true, force: true });
    expect(repo.git("status", "--porcelain")).not.toContain("A ");
  });

  it("refuses revisions that look like options, everywhere", async () => {
    const repo = createTemporaryRepository();
    repositories.push(repo);
    const tools = new Map(
      createGitTools({ root: repo.root, mode: "read-write" }).map((tool) => [tool.name, tool]),
    );
    const attempts: [string, Record<string, unknown>][] = [];
    for (const revision of ["--output=/tmp/agentool-x", "-f", "--orphan=x", "-p", " --all"]) {
      attempts.push(["git_diff", { ref: revision }]);
      attempts.push(["git_log", { ref: revision }]);
      attempts.push(["git_show", { revision }]);
      attempts.push(["git_branch", { action: "create", name: revision }]);
      attempts.push(["git_branch", { action: "create", name: "ok-name", base: revision }]);
    }
    for (const [name, input] of attempts) {
      const result = await tools.get(name)?.run(input);
      expect(result?.success, `${name} ${JSON.stringify(input)}`).toBe(false);
      if (result && !result.success) expect(result.error.code).toBe("INVALID_INPUT");
    }
    expect(existsSync("/tmp/agentool-x")).toBe(false);
    expect(repo.git("branch", "--list")).not.toMatch(/orphan|ok-name/);
  });

  it("option-looking filters stay values", async () => {
    const repo = createTemporaryRepository();
    repositories.push(repo);
    const log = createGitTools({ root: repo.root }).find((tool) => tool.name === "git_log");
    const result = await log?.run({ author: "--output=/tmp/agentool-y", since: "--all" });
    expect(result?.success).toBe(true);
    expect(existsSync("/tmp/agentool-y")).toBe(false);
  });
});

describe("secret paths stay out of git", () => {
  function repositoryWithSecrets() {
    const repository = createTemporaryRepository();
    repositories.push(repository);
    repository.commit("app.ts", "export const port = 3000;\n", "app");
    repository.commit(".env", "API_KEY=committed-long-ago\n", "a secret committed by someone");
    repository.write(".env", "API_KEY=changed-secret\n");
    repository.write("deploy/server.pem", "-----BEGIN PRIVATE KEY-----\n");
    repository.write("app.ts", "export const port = 8080;\n");
    const tools = createGitTools({ root: repository.root, mode: "read-write" });
    const tool = (name: string) => {
      const found = tools.find((candidate) => candidate.name === name);
      if (found === undefined) throw new Error(`no ${name}`);
      return found;
    };
    return { repository, tool };
  }

  it("refuses to stage, show or diff a secret path by name", async () => {
    const { tool } = repositoryWithSecrets();
    for (const [name, input] of [
      ["git_add", { files: [".env"] }],
      ["git_add", { files: ["deploy/server.pem"] }],
      ["git_show", { revision: "HEAD", path: ".env" }],
      ["git_diff", { path: ".env" }],
      ["git_log", { path: ".env" }],
      ["git_commit", { message: "leak", files: [".env"] }],
    ] as const) {
      const result = await tool(name).run(input);
      expect(result, `${name} ${JSON.stringify(input)}`).toMatchObject({
        success: false,
        error: { code: "BLOCKED" },
      });
    }
  });

  it("leaves secret files out of whole-tree diffs, commit views and commit all", async () => {
    const { repository, tool } = repositoryWithSecrets();
    const diff = JSON.stringify(await tool("git_diff").run({}));
    expect(diff).toContain("8080");
    expect(diff).not.toContain("changed-secret");
    expect(diff).not.toContain("committed-long-ago");
    const show = JSON.stringify(await tool("git_show").run({ revision: "HEAD" }));
    expect(show).not.toContain("committed-long-ago");
    const commit = await tool("git_commit").run({ message: "everything but secrets" });
    expect(commit.success).toBe(true);
    const committed = repository.git("show", "--name-only", "--format=", "HEAD").trim().split("\n");
    expect(committed).toEqual(["app.ts"]);
    expect(repository.git("status", "--porcelain")).toContain("deploy/");
  });
});

describe("the host's own secret list", () => {
  it("replaces the default list for every tool", async () => {
    const repository = createTemporaryRepository();
    repositories.push(repository);
    repository.commit("app.ts", "export {};\n", "app");
    repository.write("private/notes.txt", "internal only\n");
    repository.write(".env", "API_KEY=not secret here\n");
    const tools = createGitTools({
      root: repository.root,
      mode: "read-write",
      secretPaths: ["private"],
      secretExceptions: [],
    });
    const add = tools.find((tool) => tool.name === "git_add");
    expect(await add?.run({ files: ["private/notes.txt"] })).toMatchObject({
      success: false,
      error: { code: "BLOCKED" },
    });
    expect((await add?.run({ files: [".env"] }))?.success).toBe(true);
    const commit = tools.find((tool) => tool.name === "git_commit");
    expect((await commit?.run({ message: "all but private" }))?.success).toBe(true);
    expect(
      repository.git("show", "--name-only", "--format=", "HEAD").trim().split("\n").sort(),
    ).toEqual([".env"]);
  });
});
