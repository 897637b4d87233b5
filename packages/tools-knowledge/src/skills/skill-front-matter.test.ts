import { describe, expect, it } from "vitest";
import { parseSkillFile } from "./skill-front-matter.js";

describe("parseSkillFile", () => {
  it("reads plain, quoted, continued and block scalars, ignoring other keys", () => {
    const text = [
      "\uFEFF---",
      "name: 'deploy-service'",
      "license: MIT",
      "metadata:",
      "  owner: ops",
      "  name: nested-is-ignored",
      "allowed-tools:",
      "  - read_file",
      "description: >",
      "  Roll out a service",
      "  to production.",
      "---",
      "# Steps",
      "",
    ].join("\r\n");
    expect(parseSkillFile(text)).toEqual({
      ok: true,
      skill: {
        name: "deploy-service",
        description: "Roll out a service to production.",
        body: "# Steps\r\n",
        bodyStartLine: 13,
      },
    });
    const quoted = parseSkillFile(
      '---\nname: "a-b"\ndescription: "Use \\"this\\": yes" # why\n---\n',
    );
    expect(quoted).toMatchObject({
      ok: true,
      skill: { name: "a-b", description: 'Use "this": yes' },
    });
    const continued = parseSkillFile("---\nname: c\ndescription: one\n  two\n...\nbody");
    expect(continued).toMatchObject({ ok: true, skill: { description: "one two", body: "body" } });
    const literal = parseSkillFile("---\nname: d\ndescription: |\n  line one\n  line two\n---\n");
    expect(literal).toMatchObject({ ok: true, skill: { description: "line one line two" } });
  });

  it("says what is wrong with a file that is not a skill", () => {
    const problem = (text: string) => {
      const parsed = parseSkillFile(text);
      return parsed.ok ? "ok" : `${parsed.reason}: ${parsed.problem}`;
    };
    expect(problem("# no front matter")).toBe(
      "malformed: SKILL.md does not start with a --- front matter line",
    );
    expect(problem("---\nname: a\n")).toBe(
      "malformed: SKILL.md's front matter has no closing --- line",
    );
    expect(problem("---\ndescription: d\n---\n")).toBe("malformed: the front matter has no name");
    expect(problem("---\nname: a\ndescription:   \n---\n")).toBe(
      "malformed: the front matter has no description",
    );
    expect(problem("---\nname: a\nname: b\ndescription: d\n---\n")).toBe(
      'malformed: the front matter has "name" twice',
    );
    expect(problem('---\nname: "open\ndescription: d\n---\n')).toBe(
      'malformed: the front matter\'s "name" is not a valid quoted string',
    );
    expect(problem("---\nname: Has Space\ndescription: d\n---\n")).toMatch(/^invalid_name:/);
    expect(problem(`---\nname: ${"a".repeat(65)}\ndescription: d\n---\n`)).toMatch(
      /^invalid_name:/,
    );
    expect(problem(`---\nname: a\ndescription: ${"d".repeat(1_025)}\n---\n`)).toMatch(
      /the description is 1025 characters/,
    );
    expect(problem("---\nnot a key line\n---\n")).toMatch(/is not "key: value"/);
  });
});

describe("parseSkillFile on hostile front matter (issue 27, finding 6)", () => {
  it("reads a 60 KB run of spaces without a quadratic comment scan", () => {
    // The old /\s+#.*$/ took 6.7–11 s on this; the design limit for the event loop is 250 ms.
    const text = `---\nname: spaces\ndescription: a${" ".repeat(60_000)}b\n---\nbody\n`;
    const started = performance.now();
    const parsed = parseSkillFile(text);
    expect(performance.now() - started).toBeLessThan(1_000);
    // Whitespace in a description collapses to one space.
    expect(parsed).toMatchObject({ ok: true, skill: { name: "spaces", description: "a b" } });
  });

  it("refuses front matter over 64 KiB before reading its fields", () => {
    const padding = Array.from({ length: 3_000 }, (_, index) => `key${index}: ${"x".repeat(30)}`);
    const text = ["---", "name: big", "description: d", ...padding, "---", "body"].join("\n");
    const parsed = parseSkillFile(text);
    expect(parsed).toMatchObject({ ok: false, reason: "malformed" });
    if (!parsed.ok) expect(parsed.problem).toContain("over 65536 characters");
  });

  it("still drops ` #` comments the same way", () => {
    const text =
      "---\nname: tea # the name\ndescription: 'Brews tea.'   # quoted, then a comment\n---\n";
    expect(parseSkillFile(text)).toMatchObject({
      ok: true,
      skill: { name: "tea", description: "Brews tea." },
    });
    expect(parseSkillFile("---\nname: tea\ndescription: x#y\n---\n")).toMatchObject({
      ok: true,
      skill: { name: "tea", description: "x#y" },
    });
  });
});
