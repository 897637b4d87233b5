import { mkdirSync } from "node:fs";
import { join } from "node:path";
import {
  AGENTOOL_TOOL_NAMES,
  checkConformance,
  findAbsentToolNames,
} from "@agentool/contract/testing";
import type { InteractionHandler } from "@agentool/tools-interact";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { temporaryDirectory } from "./test-support/spawn-server.js";
import { buildToolSet, isGitRepositoryRoot, type ToolSetConfiguration } from "./tool-sets.js";

const handler: InteractionHandler = { ask: () => "yes", notify: () => {} };
let project: ReturnType<typeof temporaryDirectory>;

beforeAll(() => {
  project = temporaryDirectory({ "a.md": "# A\n" });
});
afterAll(() => project?.cleanup());

const everything: ToolSetConfiguration = {
  families: ["core", "fs", "git", "web", "interact"],
  mode: "read-write",
  allowCommands: ["echo"],
  searxng: "http://127.0.0.1:9",
  allowHosts: ["127.0.0.1"],
};

describe("buildToolSet", () => {
  it("builds every family, each description naming only tools of this set", () => {
    mkdirSync(join(project.path, ".git"), { recursive: true });
    const set = buildToolSet(everything, { root: project.path, elicitation: true, handler });
    const names = set.tools.map((tool) => tool.name);
    expect(names).toContain("run_command");
    expect(names).toContain("git_commit");
    expect(names).toContain("web_search");
    expect(names).toContain("ask_user");
    expect(new Set(names).size).toBe(names.length);
    expect([...set.families.values()].flat().sort()).toEqual([...names].sort());
    const mounted = new Set(names);
    for (const tool of set.tools) {
      expect(
        findAbsentToolNames(tool.description, mounted, AGENTOOL_TOOL_NAMES),
        tool.name,
      ).toEqual([]);
    }
    expect(set.notes).toEqual([]);
  });

  it("leaves out what the state cannot serve, with a note each", () => {
    const set = buildToolSet(
      { ...everything, mode: "read-only", allowCommands: [] },
      { root: undefined, elicitation: false, handler },
    );
    expect(set.tools.map((tool) => tool.name)).toEqual([
      "think",
      "update_plan",
      "web_search",
      "wiki_search",
      "web_fetch",
      "notify",
    ]);
    expect(set.notes).toHaveLength(2);
    expect(set.notes[0]).toContain("fs and git tools left out");
    expect(set.notes[1]).toContain("ask_user and confirm left out");
    const mounted = new Set(set.tools.map((tool) => tool.name));
    for (const tool of set.tools) {
      expect(
        findAbsentToolNames(tool.description, mounted, AGENTOOL_TOOL_NAMES),
        tool.name,
      ).toEqual([]);
    }
  });

  it("passes the conformance kit's checks as one set (schemas for every provider, names, descriptions)", async () => {
    const set = buildToolSet(everything, { root: project.path, elicitation: true, handler });
    const report = await checkConformance(set.tools);
    expect(report.violations).toEqual([]);
    expect(report.checkedTools).toHaveLength(set.tools.length);
  });
});

describe("isGitRepositoryRoot", () => {
  it("is true only for a directory with its own .git directory", () => {
    const plain = temporaryDirectory({ "x.txt": "x", "nested/.git": "gitdir: /elsewhere" });
    try {
      expect(isGitRepositoryRoot(plain.path)).toBe(false);
      expect(isGitRepositoryRoot(join(plain.path, "nested"))).toBe(false);
      mkdirSync(join(plain.path, ".git"));
      expect(isGitRepositoryRoot(plain.path)).toBe(true);
    } finally {
      plain.cleanup();
    }
  });
});
