import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { contentToText, parseNextCall } from "@agentool/contract";
import { assertConformance } from "@agentool/contract/testing";
import { describe, expect, it } from "vitest";
import { createSkillTools } from "./create-skill-tools.js";
import { SkillRegistry } from "./node/skill-registry.js";
import { createReadSkillFileTool, type ReadSkillFileTool } from "./read-skill-file.js";
import { useSkillFolders } from "./test-support/skill-folders.js";

const folders = useSkillFolders();

const LONG = Array.from({ length: 450 }, (_, index) => `line ${index + 1}`).join("\n");

function setUp(options: { maxReferenceBytes?: number } = {}) {
  const root = folders.folder();
  const outside = folders.folder();
  const deploy = folders.skill(root, "deploy", "Roll out a service.", {
    "references/checklist.md": "# Checklist\n\n- tests green\n",
    "references/long.md": `${LONG}\n`,
    "notes.txt": "a\r\nb\r\n",
    "nested/deeper/file.md": "deep\n",
    ".env": "TOKEN=secret\n",
    "image.png": new Uint8Array([0x89, 0x50, 0x00, 0x01]),
    "big.md": "y".repeat(3_000),
  });
  const other = folders.skill(root, "other", "Another skill.", {
    "private.md": "other skill's notes\n",
  });
  writeFileSync(join(outside, "passwd"), "root:x:0:0\n");
  symlinkSync(join(outside, "passwd"), join(deploy, "escape.md"));
  symlinkSync(join(other, "private.md"), join(deploy, "peek.md"));
  symlinkSync(outside, join(deploy, "outside-folder"));
  symlinkSync(join(deploy, "references", "checklist.md"), join(deploy, "inside-link.md"));
  symlinkSync(join(deploy, ".env"), join(deploy, "env-link.md"));
  const registry = new SkillRegistry(root, {
    maxReferenceBytes: options.maxReferenceBytes ?? 2_000,
  });
  const tools = createSkillTools({ registry });
  const read = tools[1] as ReadSkillFileTool;
  return { root, outside, deploy, other, registry, read };
}

function errorOf(result: Awaited<ReturnType<ReadSkillFileTool["run"]>>) {
  if (result.success) throw new Error(`expected a failure, got ${JSON.stringify(result.data)}`);
  return result.error;
}

describe("read_skill_file", () => {
  it("passes the conformance kit, paging with the contract's marker", async () => {
    const { read, registry } = setUp({ maxReferenceBytes: 1_000_000 });
    await assertConformance(createSkillTools({ registry }), {
      samples: {
        use_skill: { name: "deploy" },
        read_skill_file: { skill: "deploy", path: "references/checklist.md" },
      },
      cutSamples: { read_skill_file: { skill: "deploy", path: "references/long.md", limit: 7 } },
    });
    const alone = createReadSkillFileTool({ registry });
    await assertConformance([alone], {
      samples: { read_skill_file: { skill: "deploy", path: "notes.txt" } },
    });
    expect(alone.description).not.toContain("use_skill");
    expect(read.description).toContain("use_skill");
  });

  it("reads a file inside the skill as numbered lines, the data holding the text as it is", async () => {
    const { read } = setUp();
    const result = await read.run({
      skill: "deploy",
      path: "./references/../references/checklist.md",
    });
    expect(result).toEqual({
      success: true,
      data: {
        skill: "deploy",
        path: "references/checklist.md",
        content: "# Checklist\n\n- tests green\n",
        start_line: 1,
        end_line: 3,
        limit: 200,
        total: 3,
        truncated: false,
        bytes: 27,
        cut_lines: [],
      },
    });
    expect(contentToText(read.renderResult(result))).toBe(
      "deploy/references/checklist.md — lines 1–3 of 3\n     1\t# Checklist\n     2\t\n     3\t- tests green",
    );
    const crlf = await read.run({ skill: "deploy", path: "notes.txt" });
    expect(crlf.success && crlf.data.content).toBe("a\r\nb\r\n");
    const inside = await read.run({ skill: "deploy", path: "inside-link.md" });
    expect(inside.success && inside.data.content).toBe("# Checklist\n\n- tests green\n");
    const absolute = await read.run({ skill: "deploy", path: join(setUp().deploy, "notes.txt") });
    expect(absolute.success).toBe(false);
  });

  it("accepts an absolute path inside the skill's own folder", async () => {
    const { read, deploy } = setUp();
    const result = await read.run({ skill: "deploy", path: join(deploy, "nested/deeper/file.md") });
    expect(result.success && result.data.path).toBe("nested/deeper/file.md");
  });

  it("pages with offset and limit; the marker names the exact next call", async () => {
    const { read } = setUp({ maxReferenceBytes: 1_000_000 });
    const first = await read.run({ skill: "deploy", path: "references/long.md" });
    expect(first.success && [first.data.start_line, first.data.end_line, first.data.total]).toEqual(
      [1, 200, 450],
    );
    const text = contentToText(read.renderResult(first));
    expect(text).toContain(
      '…[truncated: 250 more lines — call read_skill_file again with skill="deploy", path="references/long.md", limit=200, offset=201]',
    );
    const next = parseNextCall(text);
    const second = await read.run({ skill: "deploy", path: "references/long.md", ...next?.args });
    expect(second.success && [second.data.start_line, second.data.end_line]).toEqual([201, 400]);
    const last = await read.run({
      skill: "deploy",
      path: "references/long.md",
      offset: 441,
      limit: 50,
    });
    expect(last.success && [last.data.start_line, last.data.end_line, last.data.truncated]).toEqual(
      [441, 450, false],
    );
    const past = errorOf(
      await read.run({ skill: "deploy", path: "references/long.md", offset: 451 }),
    );
    expect(past.code).toBe("INVALID_INPUT");
    expect(past.message).toContain("past the end");
  });

  it("caps a page in characters and a line in length", async () => {
    const root = folders.folder();
    folders.skill(root, "wide", "Wide lines.", {
      "wide.md": `${"w".repeat(5_000)}\n${Array.from({ length: 100 }, () => "z".repeat(900)).join("\n")}\n`,
    });
    const read = createReadSkillFileTool({
      registry: new SkillRegistry(root),
      maxPageCharacters: 10_000,
      maxLineCharacters: 1_000,
    });
    const result = await read.run({ skill: "wide", path: "wide.md" });
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.data.cut_lines).toEqual([{ line: 1, omitted: 4_000 }]);
    expect(result.data.end_line).toBeLessThan(20);
    expect(result.data.truncated).toBe(true);
    const text = contentToText(read.renderResult(result));
    expect(text.length).toBeLessThanOrEqual(10_000 + 300);
    expect(text).toContain(
      "…[truncated: 4,000 more characters — line 1 is too long to show whole]",
    );
  });

  it("refuses .. above the skill, another skill's folder and absolute paths outside with INVALID_PATH", async () => {
    const { read, other, outside } = setUp();
    for (const path of [
      "../other/private.md",
      "references/../../other/SKILL.md",
      "..",
      join(other, "private.md"),
      join(outside, "passwd"),
      "/etc/passwd",
      "~/notes.md",
      "C:/Windows/win.ini",
      "a\0b",
    ]) {
      const error = errorOf(await read.run({ skill: "deploy", path }));
      expect([path, error.code]).toEqual([path, "INVALID_PATH"]);
      expect(error.hint).toContain("inside skill deploy's own folder");
    }
  });

  it("refuses symlinks that lead out of the skill, into another skill's folder too", async () => {
    const { read } = setUp();
    const escaped = errorOf(await read.run({ skill: "deploy", path: "escape.md" }));
    expect(escaped.code).toBe("INVALID_PATH");
    expect(escaped.message).toContain("leads out of skill deploy's folder");
    const peek = errorOf(await read.run({ skill: "deploy", path: "peek.md" }));
    expect(peek.code).toBe("INVALID_PATH");
    expect(peek.message).toContain("(into skill other's folder)");
    const through = errorOf(await read.run({ skill: "deploy", path: "outside-folder/passwd" }));
    expect(through.code).toBe("INVALID_PATH");
  });

  it("never reads a symlinked SKILL.md's target: that skill is not in the registry", async () => {
    const root = folders.folder();
    const outside = folders.folder();
    writeFileSync(
      join(outside, "SKILL.md"),
      "---\nname: sneaky\ndescription: s\n---\nsecret body\n",
    );
    mkdirSync(join(root, "sneaky"));
    symlinkSync(join(outside, "SKILL.md"), join(root, "sneaky", "SKILL.md"));
    const [useSkill, read] = createSkillTools({ registry: new SkillRegistry(root) });
    expect((await useSkill?.run({ name: "sneaky" }))?.success).toBe(false);
    const result = await read?.run({ skill: "sneaky", path: "SKILL.md" });
    expect(result?.success === false && result.error.code).toBe("INVALID_INPUT");
  });

  it("maps the other refusals to one code each", async () => {
    const { read } = setUp();
    const secret = errorOf(await read.run({ skill: "deploy", path: ".env" }));
    expect(secret.code).toBe("BLOCKED");
    const linkedSecret = errorOf(await read.run({ skill: "deploy", path: "env-link.md" }));
    expect(linkedSecret.code).toBe("BLOCKED");
    const missing = errorOf(await read.run({ skill: "deploy", path: "references/nope.md" }));
    expect(missing.code).toBe("FILE_NOT_FOUND");
    expect(missing.hint).toBe('Call use_skill with name="deploy" for the skill\'s file list.');
    const folder = errorOf(await read.run({ skill: "deploy", path: "references" }));
    expect(folder.code).toBe("INVALID_PATH");
    const self = errorOf(await read.run({ skill: "deploy", path: "." }));
    expect(self.code).toBe("INVALID_PATH");
    const binary = errorOf(await read.run({ skill: "deploy", path: "image.png" }));
    expect(binary.code).toBe("UNSUPPORTED");
    const big = errorOf(await read.run({ skill: "deploy", path: "big.md" }));
    expect(big.code).toBe("TOO_LARGE");
    expect(big.message).toContain("over the 2,000-byte cap");
    const unknown = errorOf(await read.run({ skill: "deplyo", path: "SKILL.md" }));
    expect(unknown.code).toBe("INVALID_INPUT");
    expect(unknown.message).toContain('Did you mean "deploy"?');
    expect(unknown.hint).toContain("- other: Another skill.");
  });

  it("reads SKILL.md itself, and a skill installed after the last scan", async () => {
    const { read, root } = setUp();
    const skillFile = await read.run({ skill: "deploy", path: "SKILL.md" });
    expect(skillFile.success && skillFile.data.content.startsWith("---\nname: deploy\n")).toBe(
      true,
    );
    folders.skill(root, "fresh", "Installed mid-session.", { "a.md": "fresh\n" });
    const fresh = await read.run({ skill: "fresh", path: "a.md" });
    expect(fresh.success && fresh.data.content).toBe("fresh\n");
  });

  it("redacts private key blocks", async () => {
    const root = folders.folder();
    const key = [
      "-----BEGIN OPENSSH PRIVATE KEY-----",
      "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW",
      "-----END OPENSSH PRIVATE KEY-----",
    ].join("\n");
    folders.skill(root, "keys", "Has a key.", { "setup.md": `before\n${key}\nafter\n` });
    const read = createReadSkillFileTool({ registry: new SkillRegistry(root) });
    const result = await read.run({ skill: "keys", path: "setup.md" });
    expect(result.success && result.data.redacted_private_keys).toBe(true);
    expect(result.success && result.data.content).not.toContain("b3BlbnNzaC1rZXkt");
    expect(
      result.success && result.data.content.startsWith("before\n[private key redacted]\n"),
    ).toBe(true);
  });
});
