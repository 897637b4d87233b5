import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../define-tool.js";
import { fail, ok } from "../result.js";
import { closestNames, editDistance } from "./closest-names.js";
import { mountedTools } from "./mounted-tools.js";
import { errorMessage, formatCount, formatCountOf, joinSentences, listWords } from "./text.js";
import { raceSignal, retryWithBackoff, sleep } from "./timing.js";
import { ToolFailureError } from "./tool-failure-error.js";
import { toolOptionsShape } from "./tool-options.js";

describe("mountedTools", () => {
  it("names only what is mounted, and the tool itself when given", () => {
    const mounted = mountedTools(["read_file", "grep_search"], "edit_file");
    expect(mounted.has("edit_file")).toBe(true);
    expect(mounted.has("write_file")).toBe(false);
    expect(mounted.when("read_file", "Read it first.")).toBe("Read it first.");
    expect(mounted.when("write_file", "Write it.")).toBe("");
    expect(mounted.whenAll(["read_file", "grep_search"], "both")).toBe("both");
    expect(mounted.whenAll(["read_file", "write_file"], "both")).toBe("");
    expect(mounted.first("write_file", "grep_search", "read_file")).toBe("grep_search");
    expect(mounted.first("write_file")).toBeUndefined();
    expect(mounted.filter(["write_file", "read_file", "edit_file"])).toEqual([
      "read_file",
      "edit_file",
    ]);
    expect(mountedTools(undefined).has("read_file")).toBe(false);
  });
});

describe("text helpers", () => {
  it("formatCountOf says the noun in the singular for exactly one", () => {
    expect(formatCountOf(1, "file")).toBe("1 file");
    expect(formatCountOf(0, "file")).toBe("0 files");
    expect(formatCountOf(12_345, "match", "matches")).toBe("12,345 matches");
    expect(formatCountOf(-1, "line")).toBe("-1 lines");
  });

  it("formatCount groups digits the same way on every locale", () => {
    expect(formatCount(1_234_567)).toBe("1,234,567");
    expect(formatCount(12)).toBe("12");
  });

  it("formatCount gives what Intl.NumberFormat en-US gives, integers by its own grouping", () => {
    const reference = new Intl.NumberFormat("en-US");
    const values = [
      0,
      -0,
      1,
      -1,
      999,
      1_000,
      -1_000,
      12_345,
      999_999,
      1_000_000,
      -987_654_321,
      Number.MAX_SAFE_INTEGER,
      Number.MIN_SAFE_INTEGER,
      2 ** 60,
      1.5,
      1234.5678,
      -0.0004,
      Number.NaN,
      Number.POSITIVE_INFINITY,
    ];
    for (let power = 0; power < 16; power += 1) values.push(10 ** power, 10 ** power - 1);
    for (const value of values) expect(formatCount(value)).toBe(reference.format(value));
  });

  it("joinSentences drops the empty parts", () => {
    expect(joinSentences(["Reads.", "", undefined, false, "Then edits."])).toBe(
      "Reads. Then edits.",
    );
    expect(joinSentences(["a", "", "b"], "\n")).toBe("a\nb");
  });

  it("listWords writes a list as a sentence does", () => {
    expect(listWords([])).toBe("");
    expect(listWords(["a"])).toBe("a");
    expect(listWords(["a", "b"])).toBe("a or b");
    expect(listWords(["a", "b", "c"], "and")).toBe("a, b and c");
  });

  it("errorMessage never throws", () => {
    expect(errorMessage(new Error("boom"))).toBe("boom");
    expect(errorMessage("plain")).toBe("plain");
    expect(errorMessage(new Error("x".repeat(500)), 300)).toBe(`${"x".repeat(300)}…`);
    expect(errorMessage(new Error("short"), 300)).toBe("short");
    const hostile = {
      toString() {
        throw new Error("no");
      },
    };
    expect(errorMessage(hostile)).toBe("unknown error");
  });
});

describe("closestNames", () => {
  it("finds a typo, a case slip and a fragment; nothing for an unrelated word", () => {
    const names = ["read_file", "write_file", "grep_search", "glob_search"];
    expect(closestNames("raed_file", names)[0]).toBe("read_file");
    expect(closestNames("READ_FILE", names)[0]).toBe("read_file");
    expect(closestNames("grep", names)).toEqual(["grep_search"]);
    expect(closestNames("zzzzzzzzzz", names)).toEqual([]);
    expect(closestNames("x_file", names, { count: 1, containment: false, maxDistance: 1 })).toEqual(
      [],
    );
  });

  it("editDistance stops at its ceiling", () => {
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("kitten", "sitting", 1)).toBe(2);
    expect(editDistance("a", "abcdef", 2)).toBe(3);
  });
});

describe("timing helpers", () => {
  it("sleep waits, and rejects with the signal's reason", async () => {
    const started = Date.now();
    await sleep(20);
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);
    const controller = new AbortController();
    const waiting = sleep(10_000, controller.signal);
    controller.abort(new Error("stopped"));
    await expect(waiting).rejects.toThrow("stopped");
  });

  it("raceSignal settles with the work, or with the abort", async () => {
    await expect(raceSignal(Promise.resolve(3), new AbortController().signal)).resolves.toBe(3);
    const controller = new AbortController();
    const racing = raceSignal(new Promise(() => {}), controller.signal);
    controller.abort(new Error("gone"));
    await expect(racing).rejects.toThrow("gone");
  });

  it("retryWithBackoff retries what is retryable, and stops at the attempts", async () => {
    const seen: number[] = [];
    const value = await retryWithBackoff(
      async (attempt) => {
        seen.push(attempt);
        if (attempt < 3) throw new Error("flaky");
        return "done";
      },
      { attempts: 3, baseDelayMs: 1 },
    );
    expect(value).toBe("done");
    expect(seen).toEqual([1, 2, 3]);
    let calls = 0;
    await expect(
      retryWithBackoff(
        async () => {
          calls += 1;
          throw new Error("fatal");
        },
        { attempts: 5, baseDelayMs: 1, retryable: () => false },
      ),
    ).rejects.toThrow("fatal");
    expect(calls).toBe(1);
  });
});

describe("ToolFailureError", () => {
  class SeamError extends ToolFailureError {}

  it("fromFailure stands for a failure envelope, and toFailure gives it back", () => {
    const failure = fail("INVALID_INPUT", "offset=9 is past the end.", {
      hint: "Call again with an offset between 1 and 3.",
    });
    const error = ToolFailureError.fromFailure(failure);
    expect(error).toBeInstanceOf(ToolFailureError);
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.toFailure()).toEqual(failure);
    const retryable = fail("TIMEOUT", "slow.", { retryable: true });
    expect(ToolFailureError.fromFailure(retryable).toFailure()).toEqual(retryable);
  });

  it("run maps it (a subclass, or as a cause) to the envelope with its code and hint", async () => {
    const tool = defineTool({
      name: "probe",
      description: "Throws coded failures for the test.",
      input: z.object({ how: z.enum(["direct", "subclass", "cause", "plain"]) }),
      execute: async ({ how }) => {
        if (how === "direct")
          throw new ToolFailureError("FILE_NOT_FOUND", "gone.", { hint: "List it." });
        if (how === "subclass")
          throw new SeamError("BLOCKED", "refused.", { hint: "Ask.", retryable: false });
        if (how === "cause")
          throw new Error("wrapped", {
            cause: new ToolFailureError("TIMEOUT", "slow.", { retryable: true }),
          });
        if (how === "plain") throw new Error("broken");
        return ok({});
      },
    });
    expect(await tool.run({ how: "direct" })).toEqual({
      success: false,
      error: { code: "FILE_NOT_FOUND", message: "gone.", hint: "List it." },
    });
    expect(await tool.run({ how: "subclass" })).toEqual({
      success: false,
      error: { code: "BLOCKED", message: "refused.", hint: "Ask.", retryable: false },
    });
    expect(await tool.run({ how: "cause" })).toEqual({
      success: false,
      error: { code: "TIMEOUT", message: "slow.", retryable: true },
    });
    const plain = await tool.run({ how: "plain" });
    expect(plain.success === false && plain.error.code).toBe("INTERNAL");
  });

  it("is recognised across copies by its marker", () => {
    const error = new SeamError("BLOCKED", "x");
    expect(ToolFailureError.isInstance(error)).toBe(true);
    expect(ToolFailureError.isInstance(new Error("x"))).toBe(false);
    expect(ToolFailureError.find({ cause: { cause: error } })).toBe(error);
  });
});

describe("toolOptionsShape", () => {
  it("accepts the common options and refuses a bad name or timeout", () => {
    const schema = z.object(toolOptionsShape).strict();
    expect(
      schema.safeParse({ name: "my_tool", description: "d", mountedTools: ["a"], timeoutMs: 0 })
        .success,
    ).toBe(true);
    expect(schema.safeParse({ name: "My Tool" }).success).toBe(false);
    expect(schema.safeParse({ timeoutMs: -1 }).success).toBe(false);
  });
});
