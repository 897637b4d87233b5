import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createGitTools } from "./create-git-tools.js";
import { createTemporaryRepository, type TemporaryRepository } from "./test-support/repository.js";

const repositories: TemporaryRepository[] = [];
afterEach(() => {
  for (const item of repositories.splice(0)) item.remove();
});

/** The agent's repository and, elsewhere on the machine, the user's other repository. */
function twoRepositories() {
  const agent = createTemporaryRepository();
  const victim = createTemporaryRepository({ empty: true });
  repositories.push(agent, victim);
  agent.commit("app.ts", "export const app = 1;\n", "agent work");
  const victimHead = victim.commit("victim.txt", "VICTIM-PRIVATE-CONTENT\n", "victim history");
  const tools = new Map(
    createGitTools({
      root: agent.root,
      mode: "read-write",
      author: { name: "Agent", email: "agent@example.com" },
    }).map((tool) => [tool.name, tool]),
  );
  const call = async (name: string, input: unknown) => {
    const tool = tools.get(name);
    if (tool === undefined) throw new Error(`no ${name}`);
    return tool.run(input);
  };
  return { agent, victim, victimHead, call };
}

async function expectEveryToolRefuses(
  call: (name: string, input: unknown) => Promise<unknown>,
  victim: TemporaryRepository,
  victimHead: string,
): Promise<void> {
  const before = victim.git("rev-parse", "HEAD").trim();
  for (const [name, input] of [
    ["git_status", {}],
    ["git_log", { limit: 5 }],
    ["git_show", { revision: victimHead }],
    ["git_show", { revision: "HEAD", path: "victim.txt" }],
    ["git_diff", { ref: "HEAD" }],
    ["git_branch", { action: "list" }],
    ["git_commit", { message: "planted" }],
  ] as const) {
    const result = await call(name, input);
    const text = JSON.stringify(result);
    expect(text, `${name} ${JSON.stringify(input)}`).not.toContain("VICTIM-PRIVATE-CONTENT");
    expect(text, `${name} ${JSON.stringify(input)}`).not.toContain("victim history");
    expect(result, `${name} ${JSON.stringify(input)}`).toMatchObject({
      success: false,
      error: { code: "BLOCKED" },
    });
  }
  expect(victim.git("rev-parse", "HEAD").trim()).toBe(before);
  expect(victim.git("log", "--format=%s")).not.toContain("planted");
}

describe("a hostile repository layout cannot point the git tools at another repository", () => {
  it("control: plain git follows .git/commondir into the other repository", () => {
    const { agent, victim } = twoRepositories();
    writeFileSync(join(agent.root, ".git", "commondir"), `${join(victim.root, ".git")}\n`);
    expect(agent.git("log", "--format=%s")).toContain("victim history");
  });

  it("refuses .git/commondir pointing at another repository (reads and commits)", async () => {
    const { agent, victim, victimHead, call } = twoRepositories();
    writeFileSync(join(agent.root, ".git", "commondir"), `${join(victim.root, ".git")}\n`);
    agent.write("planted.txt", "planted by the agent\n");
    await expectEveryToolRefuses(call, victim, victimHead);
    const status = await call("git_status", {});
    expect(status).toMatchObject({ error: { message: expect.stringMatching(/commondir/) } });
  });

  it("refuses a .git file whose gitdir is outside the root", async () => {
    const { agent, victim, victimHead, call } = twoRepositories();
    const moved = join(agent.base, "moved-git");
    renameSync(join(agent.root, ".git"), moved);
    writeFileSync(join(agent.root, ".git"), `gitdir: ${join(victim.root, ".git")}\n`);
    agent.write("planted.txt", "planted by the agent\n");
    await expectEveryToolRefuses(call, victim, victimHead);
    const status = await call("git_status", {});
    expect(status).toMatchObject({ error: { message: expect.stringMatching(/gitdir/) } });
  });

  it("refuses objects/info/alternates leading out of the root", async () => {
    const { agent, victim, victimHead, call } = twoRepositories();
    mkdirSync(join(agent.root, ".git", "objects", "info"), { recursive: true });
    writeFileSync(
      join(agent.root, ".git", "objects", "info", "alternates"),
      `# borrowed\n${join(victim.root, ".git", "objects")}\n`,
    );
    // Plain git now reads the other repository's objects through the agent's repository.
    expect(agent.git("cat-file", "-p", `${victimHead}:victim.txt`)).toContain(
      "VICTIM-PRIVATE-CONTENT",
    );
    const show = await call("git_show", { revision: victimHead });
    expect(JSON.stringify(show)).not.toContain("VICTIM-PRIVATE-CONTENT");
    expect(show).toMatchObject({
      success: false,
      error: { code: "BLOCKED", message: expect.stringMatching(/alternates/) },
    });
    expect(await call("git_status", {})).toMatchObject({ error: { code: "BLOCKED" } });
  });

  it("allows alternates inside the root and keeps working on an ordinary repository", async () => {
    const { agent, call } = twoRepositories();
    const inside = join(agent.root, "vendor-objects");
    mkdirSync(inside);
    mkdirSync(join(agent.root, ".git", "objects", "info"), { recursive: true });
    writeFileSync(
      join(agent.root, ".git", "objects", "info", "alternates"),
      "../../vendor-objects\n",
    );
    expect(await call("git_status", {})).toMatchObject({ success: true });
    expect(await call("git_log", { limit: 1 })).toMatchObject({ success: true });
  });

  it("refuses an alternates entry that is a symlink out of the root", async () => {
    const { agent, victim, victimHead, call } = twoRepositories();
    const { symlinkSync } = await import("node:fs");
    symlinkSync(join(victim.root, ".git", "objects"), join(agent.root, "objects-link"));
    mkdirSync(join(agent.root, ".git", "objects", "info"), { recursive: true });
    writeFileSync(
      join(agent.root, ".git", "objects", "info", "alternates"),
      "../../objects-link\n",
    );
    const show = await call("git_show", { revision: victimHead });
    expect(JSON.stringify(show)).not.toContain("VICTIM-PRIVATE-CONTENT");
    expect(show).toMatchObject({ success: false, error: { code: "BLOCKED" } });
  });
});
