import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assertConformance } from "@agentool/contract/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRunCommandTool } from "./run-command.js";

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "agentool-run-conformance-"));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("run_command at the tool boundary", () => {
  it("passes the conformance kit, its cut (head + tail) output listed as unpaged", async () => {
    const tool = createRunCommandTool({
      root,
      allowedCommands: ["echo", "seq"],
      maxHeadLines: 20,
      maxTailLines: 20,
    });
    await assertConformance([tool], {
      samples: { run_command: { command: ["echo", "hi"] } },
      cutSamples: { run_command: { command: ["seq", "1", "5000"] } },
      unpaged: ["run_command"],
    });
    const cut = await tool.run({ command: ["seq", "1", "5000"] });
    expect(cut).toMatchObject({ success: true, data: { truncated: true } });
  });

  it("names the file tools only when they are mounted", async () => {
    const alone = createRunCommandTool({ root, allowedCommands: ["echo"] });
    expect(alone.description).not.toMatch(/read_file|grep_search|list_directory/);
    const beside = createRunCommandTool({
      root,
      allowedCommands: ["echo"],
      mountedTools: ["read_file", "grep_search"],
    });
    expect(beside.description).toContain("Prefer the file tools (read_file, grep_search)");
    await assertConformance([beside], { alsoMounted: ["read_file", "grep_search"] });
  });
});
