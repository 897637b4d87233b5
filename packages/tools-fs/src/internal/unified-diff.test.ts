import { describe, expect, it } from "vitest";
import {
  commonPrefixLength,
  commonSuffixLength,
  countNewlines,
  createSpliceDiff,
  createUnifiedDiff,
} from "./unified-diff.js";

const diff = (before: string, after: string, context = 3) =>
  createUnifiedDiff(before, after, { path: "f.txt", context }).text;

describe("createUnifiedDiff", () => {
  it("is empty for equal texts", () => {
    expect(createUnifiedDiff("a\n", "a\n", { path: "f" })).toEqual({
      text: "",
      added: 0,
      removed: 0,
      hunks: 0,
      truncated: false,
      totalLines: 0,
      omittedLines: 0,
    });
  });

  it("names a moved file's two paths, and /dev/null for a side that does not exist", () => {
    const header = (options: { fromPath?: string | null; toPath?: string | null }) =>
      createUnifiedDiff("a\n", "b\n", { path: "new.txt", ...options })
        .text.split("\n")
        .slice(0, 2);
    expect(header({ fromPath: "old.txt" })).toEqual(["--- a/old.txt", "+++ b/new.txt"]);
    expect(createUnifiedDiff("", "b\n", { path: "n.txt", fromPath: null }).text).toMatch(
      /^--- \/dev\/null\n\+\+\+ b\/n\.txt\n/,
    );
    expect(header({ toPath: null })).toEqual(["--- a/new.txt", "+++ /dev/null"]);
  });

  it("shows a one-line change with context", () => {
    const before = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
    const after = "1\n2\n3\n4\nfive\n6\n7\n8\n9\n";
    expect(diff(before, after)).toBe(
      [
        "--- a/f.txt",
        "+++ b/f.txt",
        "@@ -2,7 +2,7 @@",
        " 2",
        " 3",
        " 4",
        "-5",
        "+five",
        " 6",
        " 7",
        " 8",
      ].join("\n"),
    );
  });

  it("splits far-apart changes into hunks and merges near ones", () => {
    const lines = Array.from({ length: 30 }, (_, index) => `line ${index + 1}`);
    const after = [...lines];
    after[2] = "changed 3";
    after[25] = "changed 26";
    const result = createUnifiedDiff(`${lines.join("\n")}\n`, `${after.join("\n")}\n`, {
      path: "f",
    });
    expect(result.hunks).toBe(2);
    expect(result.text).toContain("@@ -1,6 +1,6 @@");
    expect(result.text).toContain("@@ -23,7 +23,7 @@");
    after[8] = "changed 9";
    expect(
      createUnifiedDiff(`${lines.join("\n")}\n`, `${after.join("\n")}\n`, { path: "f" }).hunks,
    ).toBe(2);
    after[5] = "changed 6";
    // 3 → 6 → 9 are within 2×3 lines of each other: one hunk for them.
    expect(
      createUnifiedDiff(`${lines.join("\n")}\n`, `${after.join("\n")}\n`, { path: "f" }).hunks,
    ).toBe(2);
  });

  it("handles insertions and deletions at the edges", () => {
    expect(diff("b\nc\n", "a\nb\nc\n")).toBe(
      ["--- a/f.txt", "+++ b/f.txt", "@@ -1,2 +1,3 @@", "+a", " b", " c"].join("\n"),
    );
    expect(diff("a\nb\n", "a\nb\nc\n")).toBe(
      ["--- a/f.txt", "+++ b/f.txt", "@@ -1,2 +1,3 @@", " a", " b", "+c"].join("\n"),
    );
    expect(diff("a\nb\nc\n", "a\nc\n", 0)).toBe(
      ["--- a/f.txt", "+++ b/f.txt", "@@ -2,1 +1,0 @@", "-b"].join("\n"),
    );
    expect(diff("", "x\n")).toBe(
      ["--- a/f.txt", "+++ b/f.txt", "@@ -0,0 +1,1 @@", "+x"].join("\n"),
    );
  });

  it("keeps whole lines when a change is inside a line", () => {
    expect(diff("a\nb\n", "a\nXb\n")).toBe(
      ["--- a/f.txt", "+++ b/f.txt", "@@ -1,2 +1,2 @@", " a", "-b", "+Xb"].join("\n"),
    );
    expect(diff("b\n", "ab\n")).toBe(
      ["--- a/f.txt", "+++ b/f.txt", "@@ -1,1 +1,1 @@", "-b", "+ab"].join("\n"),
    );
    expect(diff("\nx\n", "y\nx\n")).toBe(
      ["--- a/f.txt", "+++ b/f.txt", "@@ -1,2 +1,2 @@", "-", "+y", " x"].join("\n"),
    );
  });

  it("marks a missing newline at the end of the file", () => {
    expect(diff("a\nb", "a\nb\nc")).toBe(
      [
        "--- a/f.txt",
        "+++ b/f.txt",
        "@@ -1,2 +1,3 @@",
        " a",
        "-b",
        "\\ No newline at end of file",
        "+b",
        "+c",
        "\\ No newline at end of file",
      ].join("\n"),
    );
    expect(diff("a\nb\n", "a\nb")).toBe(
      [
        "--- a/f.txt",
        "+++ b/f.txt",
        "@@ -1,2 +1,2 @@",
        " a",
        "-b",
        "+b",
        "\\ No newline at end of file",
      ].join("\n"),
    );
  });

  it("hides carriage returns and keeps the first whole lines of a long diff, counting the rest", () => {
    expect(diff("a\r\nb\r\n", "a\r\nc\r\n")).toContain("\n-b\n+c");
    const before = Array.from({ length: 1000 }, (_, index) => `${index}`).join("\n");
    const after = Array.from({ length: 1000 }, (_, index) => `x${index}`).join("\n");
    const result = createUnifiedDiff(before, after, { path: "f", maxLines: 50 });
    expect(result.truncated).toBe(true);
    expect(result.added).toBe(1000);
    // 3 header lines, 2,000 changed lines and 2 "No newline" notes; 50 kept, no marker in the text.
    expect(result.totalLines).toBe(2005);
    expect(result.omittedLines).toBe(1955);
    expect(result.text.split("\n")).toHaveLength(50);
    expect(result.text).not.toContain("truncated");
    const byCharacters = createUnifiedDiff(before, after, { path: "f", maxCharacters: 500 });
    expect(byCharacters.text.length).toBeLessThanOrEqual(500);
    expect(byCharacters.omittedLines).toBe(2005 - byCharacters.text.split("\n").length);
    const oneLong = createUnifiedDiff("a", "b".repeat(30_000), { path: "f", maxCharacters: 1_000 });
    expect(oneLong.text.length).toBeLessThanOrEqual(1_000);
  });

  it("produces a minimal diff for scattered changes in a big text quickly", () => {
    const lines = Array.from({ length: 200_000 }, (_, index) => `const value${index} = ${index};`);
    const after = [...lines];
    after[10] = "changed";
    after[199_990] = "changed too";
    const started = performance.now();
    const result = createUnifiedDiff(lines.join("\n"), after.join("\n"), { path: "big" });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(result.added).toBe(2);
    expect(result.removed).toBe(2);
    expect(result.text).toContain("@@ -199988,7 +199988,7 @@");
  });
});

describe("private keys in diffs", () => {
  const body = Array.from({ length: 8 }, (_, index) => `KEYLINE${index}AbCdEfGh0123456789+/xyzXYZ`);
  const yaml = `host: example\nkey: |\n  -----BEGIN OPENSSH PRIVATE KEY-----\n${body.map((line) => `  ${line}`).join("\n")}\n  -----END OPENSSH PRIVATE KEY-----\nport: 22\nuser: deploy\n`;

  it("shows each key line as the note, prefix kept, counts and line numbers true", () => {
    const result = createUnifiedDiff(yaml, yaml.replace("port: 22", "port: 2222"), {
      path: "deploy.yaml",
    });
    expect(result.text).not.toMatch(/KEYLINE|BEGIN|END/);
    expect(result.text).toBe(
      [
        "--- a/deploy.yaml",
        "+++ b/deploy.yaml",
        "@@ -10,5 +10,5 @@",
        " [private key redacted]",
        " [private key redacted]",
        " [private key redacted]",
        "-port: 22",
        "+port: 2222",
        " user: deploy",
      ].join("\n"),
    );
    expect([result.added, result.removed]).toEqual([1, 1]);
    // Added and removed key lines too, on their own side.
    const added = createUnifiedDiff("a\n", `a\n-----BEGIN EC PRIVATE KEY-----\n${body[0]}\n`, {
      path: "k",
    });
    expect(added.text.split("\n").slice(3)).toEqual([
      " a",
      "+[private key redacted]",
      "+[private key redacted]",
    ]);
    const removed = createUnifiedDiff(yaml, "gone\n", { path: "k" });
    expect(removed.text).not.toMatch(/KEYLINE/);
    expect(removed.removed).toBe(14);
  });

  it("a window that starts inside a key block (its BEGIN before the window) is redacted", () => {
    const start = yaml.indexOf("port: 22");
    const splice = { start, end: start + "port: 22".length, replacement: "port: 2222" };
    const result = createSpliceDiff(yaml, splice, { path: "deploy.yaml" });
    expect(result.text).not.toMatch(/KEYLINE|END/);
    expect(result.text).toBe(
      createUnifiedDiff(yaml, yaml.replace("port: 22", "port: 2222"), { path: "deploy.yaml" }).text,
    );
  });
});

describe("helpers", () => {
  it("compare prefixes and suffixes across chunk boundaries", () => {
    const base = "x".repeat(10_000);
    expect(commonPrefixLength(`${base}a`, `${base}b`)).toBe(10_000);
    expect(commonSuffixLength(`a${base}`, `b${base}`, 10_001)).toBe(10_000);
    expect(commonSuffixLength(base, base, 5)).toBe(5);
    expect(countNewlines("a\nb\nc\n", 3)).toBe(1);
    expect(countNewlines("a\nb\nc\n", 6, 2)).toBe(2);
  });
});

/** Applies a unified diff made by createUnifiedDiff; throws when a context or removed line does not match. */
function applyPatch(before: string, patch: string): string {
  if (patch.length === 0) return before;
  const segments = before.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const lines = patch.split("\n").slice(2);
  const output: string[] = [];
  let cursor = 0;
  let index = 0;
  while (index < lines.length) {
    const header = /^@@ -(\d+),(\d+) \+\d+,\d+ @@$/.exec(lines[index] as string);
    if (header === null) throw new Error(`bad hunk header ${lines[index]}`);
    const start = Number(header[2]) === 0 ? Number(header[1]) : Number(header[1]) - 1;
    while (cursor < start) output.push(segments[cursor++] as string);
    index += 1;
    while (index < lines.length && !(lines[index] as string).startsWith("@@")) {
      const line = lines[index] as string;
      const final = lines[index + 1] === "\\ No newline at end of file";
      const segment = `${line.slice(1)}${final ? "" : "\n"}`;
      if (line.startsWith("+")) output.push(segment);
      else {
        if (segments[cursor] !== segment)
          throw new Error(
            `mismatch at ${cursor}: ${JSON.stringify(segments[cursor])} vs ${JSON.stringify(segment)}`,
          );
        if (line.startsWith(" ")) output.push(segment);
        cursor += 1;
      }
      index += final ? 2 : 1;
    }
  }
  while (cursor < segments.length) output.push(segments[cursor++] as string);
  return output.join("");
}

describe("createSpliceDiff", () => {
  it("gives the same diff as the whole-text diff for random single replacements", () => {
    let seed = 42;
    const random = (limit: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % limit;
    };
    const pieces = ["a", "b", "\n", "\n", "xy", ""];
    for (let round = 0; round < 2_000; round += 1) {
      let before = "";
      const length = random(30);
      for (let index = 0; index < length; index += 1) before += pieces[random(pieces.length)];
      const start = random(before.length + 1);
      const end = start + random(before.length - start + 1);
      let replacement = "";
      for (let index = random(4); index > 0; index -= 1)
        replacement += pieces[random(pieces.length)];
      const after = before.slice(0, start) + replacement + before.slice(end);
      for (const context of [0, 1, 3]) {
        const whole = createUnifiedDiff(before, after, { path: "f", context });
        const spliced = createSpliceDiff(
          before,
          { start, end, replacement },
          { path: "f", context },
        );
        // A removed line among identical ones may be placed differently; both must be valid.
        expect({ round, context, added: spliced.added, removed: spliced.removed }).toEqual({
          round,
          context,
          added: whole.added,
          removed: whole.removed,
        });
        expect({ round, context, patched: applyPatch(before, spliced.text) }).toEqual({
          round,
          context,
          patched: after,
        });
        expect({ round, context, patched: applyPatch(before, whole.text) }).toEqual({
          round,
          context,
          patched: after,
        });
      }
    }
  });
});
