import { mkdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AgentoolError } from "@agentool/contract";
import { describe, expect, it } from "vitest";
import { renderSkillMenu } from "../render-skill-menu.js";
import { skillText, useSkillFolders } from "../test-support/skill-folders.js";
import { SkillRegistry } from "./skill-registry.js";
import type { SkippedSkill } from "./skipped-skill.js";

const folders = useSkillFolders();

function collect() {
  const warnings: Array<{ message: string; skipped: SkippedSkill }> = [];
  return {
    warnings,
    onWarn: (message: string, skipped: SkippedSkill) => warnings.push({ message, skipped }),
  };
}

describe("SkillRegistry", () => {
  it("scans <skill>/SKILL.md into a sorted menu and ignores hidden entries and loose files", () => {
    const root = folders.folder();
    folders.skill(root, "write-release-notes", "Draft release notes from merged changes.");
    folders.skill(root, "deploy-service", "Roll out a service to production safely.");
    folders.write(root, { "README.md": "# my skills\n", ".git/HEAD": "ref: main\n" });
    const { warnings, onWarn } = collect();
    const registry = new SkillRegistry(root, { onWarn });
    expect(registry.menu()).toEqual([
      { name: "deploy-service", description: "Roll out a service to production safely." },
      { name: "write-release-notes", description: "Draft release notes from merged changes." },
    ]);
    expect(registry.names()).toEqual(["deploy-service", "write-release-notes"]);
    expect(warnings).toEqual([]);
  });

  it("skips malformed, mismatched, oversized, binary and symlinked entries with a warning each, never throwing", () => {
    const root = folders.folder();
    const outside = folders.folder();
    folders.skill(root, "good", "A good skill.");
    folders.write(root, {
      "no-front-matter/SKILL.md": "# Just a heading\n",
      "unclosed/SKILL.md": "---\nname: unclosed\ndescription: never closed\n",
      "no-description/SKILL.md": "---\nname: no-description\n---\nbody\n",
      "wrong-name/SKILL.md": skillText("other-name", "Name differs from the folder."),
      "Bad_Name/SKILL.md": skillText("Bad_Name", "Upper case and underscore."),
      "huge/SKILL.md": skillText("huge", "Too big.", "x".repeat(5_000)),
      "binary/SKILL.md": new Uint8Array([0x2d, 0x2d, 0x2d, 0x0a, 0x00, 0xff, 0xfe]),
      "latin1/SKILL.md": new Uint8Array([
        ...new TextEncoder().encode("---\nname: latin1\ndescription: caf"),
        0xe9,
        0x0a,
        ...new TextEncoder().encode("---\n"),
      ]),
      "duplicated-key/SKILL.md": "---\nname: duplicated-key\nname: again\ndescription: d\n---\n",
    });
    mkdirSync(join(root, "empty-folder"));
    folders.skill(outside, "linked", "A skill folder that is a symlink.");
    symlinkSync(join(outside, "linked"), join(root, "linked"));
    mkdirSync(join(root, "linked-file"));
    writeFileSync(join(outside, "real.md"), skillText("linked-file", "SKILL.md is a symlink."));
    symlinkSync(join(outside, "real.md"), join(root, "linked-file", "SKILL.md"));
    const { warnings, onWarn } = collect();
    const registry = new SkillRegistry(root, { onWarn, maxSkillFileBytes: 1_024 });
    expect(registry.names()).toEqual(["good"]);
    const reasons = Object.fromEntries(
      warnings.map(({ skipped }) => [skipped.entry, skipped.reason]),
    );
    expect(reasons).toEqual({
      Bad_Name: "invalid_name",
      binary: "malformed",
      "duplicated-key": "malformed",
      "empty-folder": "missing_skill_file",
      huge: "oversized",
      latin1: "malformed",
      linked: "symlink",
      "linked-file": "symlink",
      "no-description": "malformed",
      "no-front-matter": "malformed",
      unclosed: "malformed",
      "wrong-name": "name_mismatch",
    });
    const byEntry = new Map(warnings.map(({ skipped, message }) => [skipped.entry, message]));
    expect(byEntry.get("wrong-name")).toContain(
      'names the skill "other-name", but the folder is "wrong-name"',
    );
    expect(byEntry.get("huge")).toMatch(/over the 1,024-byte cap/);
    expect(byEntry.get("no-front-matter")).toContain("does not start with a --- front matter line");
    expect(byEntry.get("linked")).toContain("symlink");
    expect(warnings.every(({ message, skipped }) => message === skipped.message)).toBe(true);
    const report = registry.rescan();
    expect(report.skipped.map((item) => item.entry)).toEqual([...Object.keys(reasons)].sort());
    expect(report.count).toBe(1);
  });

  it("warns once per problem: a rescan repeats no warning, a new problem warns again", () => {
    const root = folders.folder();
    folders.write(root, { "broken/SKILL.md": "no front matter\n" });
    const { warnings, onWarn } = collect();
    const registry = new SkillRegistry(root, { onWarn });
    expect(warnings).toHaveLength(1);
    registry.rescan();
    registry.rescan();
    expect(warnings).toHaveLength(1);
    folders.write(root, { "broken/SKILL.md": skillText("other", "mismatch") });
    registry.rescan();
    expect(warnings.map(({ skipped }) => skipped.reason)).toEqual(["malformed", "name_mismatch"]);
  });

  it("a throwing onWarn does not break the scan", () => {
    const root = folders.folder();
    folders.skill(root, "good", "Good.");
    folders.write(root, { "bad/SKILL.md": "nope" });
    const registry = new SkillRegistry(root, {
      onWarn: () => {
        throw new Error("listener failed");
      },
    });
    expect(registry.names()).toEqual(["good"]);
  });

  it("rescan picks up a skill added, changed and removed, and says when the menu's bytes changed", () => {
    const root = folders.folder();
    folders.skill(root, "alpha", "First skill.");
    const registry = new SkillRegistry(root);
    const before = renderSkillMenu(registry.menu());

    expect(registry.rescan()).toEqual({ count: 1, names: ["alpha"], skipped: [], changed: false });

    folders.skill(root, "beta", "Second skill.");
    expect(registry.rescan()).toEqual({
      count: 2,
      names: ["alpha", "beta"],
      skipped: [],
      changed: true,
    });
    expect(renderSkillMenu(registry.menu())).not.toBe(before);

    // Same description, new body: the menu bytes stay, so changed is false.
    folders.skill(root, "beta", "Second skill.", {}, "# A new body\n");
    expect(registry.rescan().changed).toBe(false);

    // A new description moves the menu, even with the same size and time stamp.
    const file = join(root, "beta", "SKILL.md");
    writeFileSync(file, skillText("beta", "Second skilL."));
    utimesSync(file, new Date(2020, 0, 1), new Date(2020, 0, 1));
    const changed = registry.rescan();
    expect(changed.changed).toBe(true);
    expect(registry.menu()[1]).toEqual({ name: "beta", description: "Second skilL." });

    rmSync(join(root, "alpha"), { recursive: true });
    expect(registry.rescan()).toEqual({ count: 1, names: ["beta"], skipped: [], changed: true });
  });

  it("renders byte-identical menus for the same skills whatever the scan or input order", () => {
    const one = folders.folder();
    const two = folders.folder();
    for (const name of ["zeta", "alpha", "mid-one", "Alpha2".toLowerCase()]) {
      folders.skill(one, name, `Use ${name}.`);
    }
    for (const name of ["alpha2", "mid-one", "zeta", "alpha"]) {
      folders.skill(two, name, `Use ${name}.`);
    }
    const first = renderSkillMenu(new SkillRegistry(one).menu());
    const second = renderSkillMenu(new SkillRegistry(two).menu());
    expect(first).toBe(second);
    expect(renderSkillMenu([...new SkillRegistry(one).menu()].reverse())).toBe(first);
    expect(first.split("\n").filter((line) => line.startsWith("- "))).toEqual([
      "- alpha: Use alpha.",
      "- alpha2: Use alpha2.",
      "- mid-one: Use mid-one.",
      "- zeta: Use zeta.",
    ]);
  });

  it("takes several folders in priority order and skips a later duplicate with a warning", () => {
    const project = folders.folder();
    const user = folders.folder();
    folders.skill(project, "deploy", "Project deploy.");
    folders.skill(user, "deploy", "User deploy.");
    folders.skill(user, "triage", "Triage a bug.");
    const { warnings, onWarn } = collect();
    const registry = new SkillRegistry([project, user], { onWarn });
    expect(registry.menu()).toEqual([
      { name: "deploy", description: "Project deploy." },
      { name: "triage", description: "Triage a bug." },
    ]);
    expect(warnings.map(({ skipped }) => [skipped.entry, skipped.reason])).toEqual([
      [join(user, "deploy"), "duplicate"],
    ]);
    expect(warnings[0]?.message).toContain(`already found in ${join(project, "deploy")}`);
  });

  it("a missing folder means no skills and one warning, and skills appear once it is created", () => {
    const parent = folders.folder();
    const root = join(parent, "skills");
    const { warnings, onWarn } = collect();
    const registry = new SkillRegistry(root, { onWarn });
    expect(registry.menu()).toEqual([]);
    expect(renderSkillMenu(registry.menu())).toBe("");
    expect(warnings.map(({ skipped }) => skipped.reason)).toEqual(["missing_folder"]);
    folders.skill(root, "late", "Installed after start.");
    expect(registry.rescan()).toMatchObject({ count: 1, names: ["late"], changed: true });
  });

  it("caps the number of skills", () => {
    const root = folders.folder();
    for (const name of ["a", "b", "c"]) folders.skill(root, name, `Skill ${name}.`);
    const report = new SkillRegistry(root, { maxSkills: 2 }).rescan();
    expect(report.names).toEqual(["a", "b"]);
    expect(report.skipped).toMatchObject([{ entry: "c", reason: "too_many" }]);
  });

  it("refuses bad options with a message that says what to fix", () => {
    expect(() => new SkillRegistry("")).toThrow(AgentoolError);
    expect(() => new SkillRegistry([])).toThrow(/give the skills folder/);
    expect(
      () => new SkillRegistry(".", { maxSkils: 3 } as unknown as Record<string, never>),
    ).toThrow(/maxSkils/);
  });

  it("loads a skill's body and lists its files with line counts, without hidden files, secrets or links", async () => {
    const root = folders.folder();
    const outside = folders.folder();
    folders.skill(
      root,
      "deploy",
      "Roll out.",
      {
        "references/checklist.md": "one\ntwo\nthree\n",
        "scripts/rollback.sh": "#!/bin/sh\necho rollback",
        "assets/logo.png": new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]),
        ".hidden/notes.md": "hidden\n",
        ".env": "TOKEN=1\n",
        id_rsa: "key\n",
        "empty.txt": "",
      },
      "# Deploy\n\nStep one.\n",
    );
    writeFileSync(join(outside, "secret.md"), "outside\n");
    symlinkSync(join(outside, "secret.md"), join(root, "deploy", "link.md"));
    const registry = new SkillRegistry(root);
    const skill = await registry.loadSkill("deploy");
    expect(skill).toEqual({
      name: "deploy",
      description: "Roll out.",
      body: "# Deploy\n\nStep one.\n",
      bodyStartLine: 5,
      files: [
        { path: "assets/logo.png", bytes: 6, binary: true },
        { path: "empty.txt", bytes: 0, lines: 0 },
        { path: "references/checklist.md", bytes: 14, lines: 3 },
        { path: "scripts/rollback.sh", bytes: 23, lines: 2 },
      ],
      filesTotal: 4,
      filesAtLeast: false,
    });
    expect(await registry.loadSkill("nope")).toBeUndefined();
  });
});
