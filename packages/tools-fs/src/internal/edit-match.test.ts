import { monitorEventLoopDelay } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { describeIndentation, findLooseMatches } from "./edit-diagnosis.js";
import { analyzeLinePrefixes, applyTextEdit } from "./edit-match.js";
import { conflictError, lastRecordedWrite, recordWrite } from "./editable-file.js";

const apply = (text: string, oldText: string, newText: string, replaceAll = false) =>
  applyTextEdit(text, { oldText, newText, replaceAll }, { display: "f.txt" });

describe("applyTextEdit", () => {
  it("replaces a unique match literally", () => {
    const result = apply("a = 1;\nb = 2;\n", "b = 2;", "b = $& $1 $$;");
    expect(result).toEqual({
      ok: true,
      value: {
        text: "a = 1;\nb = $& $1 $$;\n",
        replacements: 1,
        matchKind: "exact",
        strippedLineNumbers: false,
        lines: [2],
        splices: [{ start: 7, end: 13, replacement: "b = $& $1 $$;" }],
      },
    });
  });

  it("lists every line of a non-unique match, or replaces all", () => {
    const text = "x\nfoo\ny\nfoo\nfoo\n";
    const refused = apply(text, "foo", "bar");
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.error.code).toBe("PATTERN_NOT_UNIQUE");
      expect(refused.error.message).toContain("occurs 3 times");
      expect(refused.error.message).toContain("lines 2, 4, 5");
      expect(refused.error.hint).toContain("replace_all");
    }
    const all = apply(text, "foo", "bar", true);
    expect(all.ok && all.value).toMatchObject({
      text: "x\nbar\ny\nbar\nbar\n",
      replacements: 3,
      lines: [2, 4, 5],
    });
  });

  it("deletes with an empty new_text and refuses empty or identical texts", () => {
    expect(apply("keep\ndrop\nkeep\n", "drop\n", "")).toMatchObject({
      ok: true,
      value: { text: "keep\nkeep\n" },
    });
    expect(apply("a", "", "b")).toMatchObject({ ok: false, error: { code: "INVALID_INPUT" } });
    expect(apply("a", "a", "a")).toMatchObject({ ok: false, error: { code: "INVALID_INPUT" } });
  });

  it("tolerates line-ending differences when the exact text is missing", () => {
    const result = apply("one\r\ntwo\nthree\r\n", "one\ntwo\nthree", "1\n2\n3");
    expect(result).toMatchObject({
      ok: true,
      value: { matchKind: "line-endings", text: "1\r\n2\r\n3\r\n" },
    });
  });

  it("tolerates trailing whitespace and keeps the rest of the file", () => {
    const result = apply(
      "head\nfunction f() {   \n  return 1;\t\n}\ntail\n",
      "function f() {\n  return 1;\n}",
      "function f() {\n  return 2;\n}",
    );
    expect(result).toMatchObject({
      ok: true,
      value: {
        matchKind: "trailing-whitespace",
        text: "head\nfunction f() {\n  return 2;\n}\ntail\n",
        lines: [2],
      },
    });
  });

  it("refuses a tolerant match that is not unique", () => {
    const result = apply("a  \nb\na\t\nb\n", "a\nb", "c");
    expect(result).toMatchObject({ ok: false, error: { code: "PATTERN_NOT_UNIQUE" } });
  });

  it("strips read_file's line-number prefixes when the text without them matches one place", () => {
    const text = "def f():\n    return 1\n\ndef g():\n    return 1\n";
    const result = apply(
      text,
      "     1\tdef f():\n     2\t    return 1\n",
      "     1\tdef f():\n     2\t    return 2\n",
    );
    expect(result.ok && result.value).toMatchObject({
      text: "def f():\n    return 2\n\ndef g():\n    return 1\n",
      strippedLineNumbers: true,
      lines: [1],
    });
    // new_text without prefixes is used as it is.
    const plain = apply(text, "     4\tdef g():", "def h():");
    expect(plain.ok && plain.value).toMatchObject({
      text: "def f():\n    return 1\n\ndef h():\n    return 1\n",
      strippedLineNumbers: true,
    });
    // Two places match without the prefixes: the first prefix's line picks one.
    const picked = apply(text, "     5\t    return 1", "    return 5");
    expect(picked.ok && picked.value).toMatchObject({ lines: [5], strippedLineNumbers: true });
    expect(picked.ok && picked.value.text.endsWith("    return 5\n")).toBe(true);
    // …and when the line does not settle it, the failure says why.
    const ambiguous = apply(text, "     9\t    return 1", "    return 5");
    expect(ambiguous).toMatchObject({ ok: false, error: { code: "PATTERN_NOT_UNIQUE" } });
    expect(!ambiguous.ok && ambiguous.error.message).toContain("line-number prefixes");
    expect(!ambiguous.ok && ambiguous.error.message).toContain("lines 2, 5");
  });

  it("says so when old_text carries line-number prefixes it cannot strip", () => {
    const text = "alpha\nbeta\ngamma\n";
    const missing = apply(text, "     2\tbeta\n     3\tdelta\n", "x");
    expect(missing).toMatchObject({ ok: false, error: { code: "PATTERN_NOT_FOUND" } });
    expect(!missing.ok && missing.error.message).toContain(
      'old_text carries read_file\'s line-number prefixes ("     2\\t" on its first line), which are not part of the file',
    );
    const partial = apply(text, "     2\tbeta\ngamma\n", "x");
    expect(!partial.ok && partial.error.message).toContain(
      "A line of old_text starts with what looks like read_file's line-number prefix",
    );
    const halfNew = apply(text, "     2\tbeta\n     3\tgamma", "     2\tBETA\nGAMMA");
    expect(halfNew).toMatchObject({ ok: false, error: { code: "INVALID_INPUT" } });
    expect(analyzeLinePrefixes("    12\ta\n    13\tb\n")).toMatchObject({
      consecutive: true,
      firstNumber: 12,
      stripped: "a\nb\n",
    });
    expect(analyzeLinePrefixes("    12\ta\n    14\tb").consecutive).toBe(false);
  });

  it("says when only the indentation differs and shows the file's indentation", () => {
    const text = "class A:\n    def f(self):\n        return 1\n";
    const result = apply(text, "\tdef f(self):\n\t\treturn 1\n", "\tdef f(self):\n\t\treturn 2\n");
    expect(result).toMatchObject({ ok: false, error: { code: "PATTERN_NOT_FOUND" } });
    if (result.ok) return;
    expect(result.error.message).toContain("Only the indentation differs");
    expect(result.error.message).toContain("lines 2–3");
    expect(result.error.message).toContain("line 2: the file has 4 spaces, old_text has 1 tab");
    expect(result.error.message).toContain("line 3: the file has 8 spaces, old_text has 2 tabs");
    expect(result.error.message).toContain("     3\t        return 1");
    expect(result.error.hint).toContain("indentation");
    const spaced = apply("let x  =  1;\n", "let x = 1;", "let x = 2;");
    expect(!spaced.ok && spaced.error.message).toContain("Only whitespace differs");
    expect(!spaced.ok && spaced.error.message).toContain('"let x  =  1;"');
    expect(describeIndentation("\t  x")).toBe("1 tab and 2 spaces");
    expect(describeIndentation("x")).toBe("no indentation");
    expect(findLooseMatches("a\n  b\n c\n", "b\nc", (line) => line.trim())).toEqual([2]);
  });

  it("tolerant matching and the diagnosis stay linear on a long run of spaces inside a line", async () => {
    // /[ \t\r]+$/ backtracks quadratically there: 50,000 spaces before an "a" took ~9 s a line.
    const text = `start\n${" ".repeat(50_000)}a\nend  \n`;
    const histogram = monitorEventLoopDelay({ resolution: 10 });
    histogram.enable();
    await new Promise((resolve) => setTimeout(resolve, 30));
    const found = apply(text, "end\n", "END\n");
    const missing = apply(text, "absent\nlines", "x");
    await new Promise((resolve) => setTimeout(resolve, 30));
    histogram.disable();
    expect(found.ok && found.value.matchKind).toBe("trailing-whitespace");
    expect(!missing.ok && missing.error.code).toBe("PATTERN_NOT_FOUND");
    expect(histogram.max / 1e6).toBeLessThan(1_000);
  });

  it("findLooseMatches finds the first ten places in a repetitive file, in order", () => {
    const text = "x\n".repeat(1_000);
    expect(findLooseMatches(text, "x\nx\nx\nx\n", (line) => line)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    ]);
    expect(findLooseMatches("ab\nc\nc\nde\nc\nd\n", "b\nc\nc\nd", (line) => line)).toEqual([1]);
    expect(findLooseMatches("c\nc\nd\n", "xc\nc\nd", (line) => line)).toEqual([]);
  });

  it("offers the sha in a CONFLICT, and says when it is the sha of the model's own last edit", () => {
    const fileSystem = {};
    const sha = "ab".repeat(32);
    const other = conflictError("a.txt", sha);
    expect(other.code).toBe("CONFLICT");
    expect(other.message).toContain(`its sha is now ${sha.slice(0, 12)}`);
    expect(other.hint).toContain(`expected_sha="${sha.slice(0, 12)}"`);
    expect(other.hint).toContain("re-read");
    recordWrite(fileSystem, "a.txt", { sha, tool: "edit_file" });
    expect(lastRecordedWrite(fileSystem, "a.txt")).toEqual({ sha, tool: "edit_file" });
    const own = conflictError("a.txt", sha, lastRecordedWrite(fileSystem, "a.txt"));
    expect(own.message).toContain("That is the sha your last edit_file call on a.txt returned");
    expect(own.hint).toContain(
      `call again with expected_sha="${sha.slice(0, 12)}" — no need to re-read`,
    );
  });

  it("shows the closest region when nothing matches", () => {
    const text =
      "import x from 'x';\n\nfunction add(a, b) {\n  return a + b;\n}\n\nexport { add };\n";
    const result = apply(text, "function add(a, b) {\n  return a - b;\n}", "nope");
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe("PATTERN_NOT_FOUND");
      expect(result.error.message).toContain("lines 3–5");
      expect(result.error.message).toContain("     4\t  return a + b;");
      expect(result.error.hint).toContain("read_file");
    }
    const similar = apply(text, "functon ad(a, b) {", "x");
    expect(!similar.ok && similar.error.message).toContain("line 3");
    const nothing = apply(text, "zzzzqqqq", "x");
    expect(!nothing.ok && nothing.error.message).toContain("Nothing in the file resembles it");
  });
});
