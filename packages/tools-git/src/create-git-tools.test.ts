import { AgentoolError } from "@agentool/contract";
import { assertConformance } from "@agentool/contract/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createGitTools } from "./create-git-tools.js";
import { createTemporaryRepository, type TemporaryRepository } from "./test-support/repository.js";

const repositories: TemporaryRepository[] = [];
afterEach(() => {
  for (const item of repositories.splice(0)) item.remove();
});

describe("createGitTools", () => {
  it("is read-only by default and adds write tools in read-write mode", () => {
    const repo = createTemporaryRepository();
    repositories.push(repo);
    const readOnly = createGitTools({ root: repo.root });
    expect(readOnly.map((tool) => tool.name)).toEqual([
      "git_status",
      "git_diff",
      "git_log",
      "git_show",
      "git_branch",
    ]);
    expect(readOnly.every((tool) => tool.annotations.readOnly === true)).toBe(true);
    expect(readOnly.every((tool) => tool.tags.includes("git:read"))).toBe(true);
    const readWrite = createGitTools({ root: repo.root, mode: "read-write" });
    expect(readWrite.map((tool) => tool.name)).toEqual([
      "git_status",
      "git_diff",
      "git_log",
      "git_show",
      "git_branch",
      "git_add",
      "git_commit",
    ]);
    for (const name of ["git_add", "git_commit", "git_branch"]) {
      const tool = readWrite.find((item) => item.name === name);
      expect(tool?.annotations).toMatchObject({ readOnly: false, destructive: false });
      expect(tool?.tags).toContain("git:write");
    }
  });

  it("rejects unknown and mistyped options", () => {
    expect(() => createGitTools({ root: "/tmp", mode: "admin" } as never)).toThrow(AgentoolError);
    expect(() => createGitTools({ root: "/tmp", shell: true } as never)).toThrow(/shell/);
    expect(() => createGitTools({} as never)).toThrow(/root/);
  });

  it("every tool passes the conformance kit", async () => {
    const repo = createTemporaryRepository();
    repositories.push(repo);
    repo.write("change.txt", "x\n");
    const tools = createGitTools({ root: repo.root, mode: "read-write" });
    await assertConformance(tools, {
      samples: {
        git_status: {},
        git_diff: { staged: false },
        git_log: { limit: 5 },
        git_show: { revision: "HEAD", path: "README.md" },
        git_branch: { action: "list" },
        git_add: { files: ["change.txt"] },
        git_commit: { message: "Conformance commit" },
      },
    });
  });

  it("abort and timeout stop the call", async () => {
    const repo = createTemporaryRepository();
    repositories.push(repo);
    const [status] = createGitTools({ root: repo.root });
    const controller = new AbortController();
    const pending = status?.run({}, { signal: controller.signal });
    controller.abort();
    expect(await pending).toMatchObject({ success: false, error: { code: "ABORTED" } });
    const timed = await status?.run({}, { timeoutMs: 1 });
    expect(timed?.success === false ? timed.error.code : "TIMEOUT").toBe("TIMEOUT");
  });
});
