import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AgentoolError } from "./agentool-error.js";
import { defineTool, isTool, type ToolContext, type ToolProgress } from "./define-tool.js";
import { fail, ok } from "./result.js";

const echo = defineTool({
  name: "echo",
  description: "Repeats the text back; use it to test wiring.",
  input: z.object({
    text: z.string().min(1).describe("What to repeat."),
    times: z.number().int().min(1).max(3).optional().describe("How often."),
    options: z
      .object({ upper: z.boolean().optional().describe("Upper-case it.") })
      .optional()
      .describe("Extras."),
  }),
  annotations: { readOnly: true },
  tags: ["test"],
  execute: ({ text, times, options }) => {
    const once = options?.upper ? text.toUpperCase() : text;
    return ok({ text: once.repeat(times ?? 1) });
  },
  render: ({ text }) => `echo: ${text}`,
});

function waitForAbort(context: ToolContext, onCancel: () => void) {
  return new Promise<never>((_, reject) => {
    context.signal.addEventListener("abort", () => {
      onCancel();
      reject(context.signal.reason);
    });
  });
}

describe("defineTool", () => {
  it("runs valid input and renders it", async () => {
    const result = await echo.run({ text: "hi", times: 2 });
    expect(result).toEqual({ success: true, data: { text: "hihi" } });
    expect(echo.renderResult(result)).toBe("echo: hihi");
    expect(isTool(echo)).toBe(true);
    expect(Object.isFrozen(echo)).toBe(true);
    expect(echo.annotations).toEqual({ readOnly: true });
    expect(echo.tags).toEqual(["test"]);
  });

  it("names every bad field and what was expected", async () => {
    const result = await echo.run({ text: 5, times: 9, surplus: true });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error.code).toBe("INVALID_INPUT");
    expect(result.error.message).toContain("text: expected string, received number");
    expect(result.error.message).toContain("times:");
    expect(result.error.message).toContain('unknown field "surplus"');
    expect(result.error.hint).toContain("call echo again");
  });

  it("ends an invalid-input message with one period when a field's own message ends with one", async () => {
    const keyed = defineTool({
      name: "key_probe",
      description: "Reads a probe key; use it to test message punctuation.",
      input: z.object({
        key: z
          .string()
          .refine((key) => !key.includes(" "), {
            message: 'a key is letters and digits (e.g. "user/editor").',
          })
          .describe("The key."),
        other: z
          .string()
          .refine(() => false, { message: "never valid." })
          .optional()
          .describe("X."),
      }),
      execute: (input) => ok(input),
    });
    const one = await keyed.run({ key: "a b" });
    expect(!one.success && one.error.message).toBe(
      'Invalid input for key_probe: key: a key is letters and digits (e.g. "user/editor").',
    );
    const two = await keyed.run({ key: "a b", other: "x" });
    expect(!two.success && two.error.message).toBe(
      'Invalid input for key_probe: key: a key is letters and digits (e.g. "user/editor"); other: never valid.',
    );
  });

  it("says a missing required field is missing", async () => {
    const result = await echo.run({});
    expect(!result.success && result.error.message).toContain(
      "text: required field is missing (expected string)",
    );
  });

  it("treats null as omitted for optional fields (OpenAI strict mode sends null)", async () => {
    expect(await echo.run({ text: "a", times: null, options: { upper: null } })).toEqual(
      ok({ text: "a" }),
    );
    expect(await echo.run({ text: "a", options: null })).toEqual(ok({ text: "a" }));
    const required = await echo.run({ text: null });
    expect(!required.success && required.error.code).toBe("INVALID_INPUT");
  });

  it("refuses keys named like Object.prototype members, at any depth, as unknown fields", async () => {
    for (const key of ["valueOf", "toString", "constructor", "hasOwnProperty", "__proto__"]) {
      for (const value of [null, [], {}, 1]) {
        const nested = JSON.parse(
          `{"text":"a","options":{${JSON.stringify(key)}:${JSON.stringify(value)}}}`,
        );
        const top = JSON.parse(`{"text":"a",${JSON.stringify(key)}:${JSON.stringify(value)}}`);
        const nestedResult = await echo.run(nested);
        expect(
          nestedResult.success || nestedResult.error.code === "INVALID_INPUT",
          `${key} nested`,
        ).toBe(true);
        const topResult = await echo.run(top);
        expect(!topResult.success && topResult.error.code, `${key} top`).toBe("INVALID_INPUT");
      }
    }
  });

  it("accepts arguments as a JSON string and refuses non-objects", async () => {
    expect(await echo.run('{"text":"x"}')).toEqual(ok({ text: "x" }));
    for (const input of ["nope", 3, [1], true]) {
      const result = await echo.run(input);
      expect(!result.success && result.error.code).toBe("INVALID_INPUT");
    }
  });

  it("parseInput validates exactly like run, without running", async () => {
    let ran = false;
    const tool = defineTool({
      ...baseDefinition(),
      input: z.object({
        text: z.string().describe("Text."),
        mode: z.enum(["a", "b"]).default("a").describe("Mode."),
        limit: z.number().optional().describe("Limit."),
      }),
      execute: () => {
        ran = true;
        return ok({ text: "" });
      },
    });
    expect(tool.parseInput('{"text":"x","limit":null}')).toEqual(ok({ text: "x", mode: "a" }));
    const bad = tool.parseInput({ text: 1, extra: true });
    expect(!bad.success && bad.error.message).toContain('unknown field "extra"');
    expect(bad).toEqual(await tool.run({ text: 1, extra: true }));
    const hostile = {
      get text(): string {
        throw new Error("getter bomb");
      },
    };
    expect(tool.parseInput(hostile)).toMatchObject({ success: false });
    expect(ran).toBe(false);
  });

  it("refuses oversized input before validating", async () => {
    const small = defineTool({ ...baseDefinition(), maxInputBytes: 50 });
    const result = await small.run({ text: "x".repeat(100) });
    expect(!result.success && result.error.message).toMatch(
      /too large: \d+ bytes \(limit 50 bytes\)/,
    );
  });

  it("maps a throw to INTERNAL and never rejects", async () => {
    const thrower = defineTool({
      ...baseDefinition(),
      execute: () => {
        throw new Error("boom");
      },
    });
    const result = await thrower.run({ text: "x" });
    expect(result).toMatchObject({ success: false, error: { code: "INTERNAL" } });
    expect(!result.success && result.error.message).toContain("boom");
    const weird = defineTool({
      ...baseDefinition(),
      execute: () =>
        Promise.reject({
          toString: () => {
            throw new Error("nasty");
          },
        }),
    });
    expect(await weird.run({ text: "x" })).toMatchObject({
      success: false,
      error: { code: "INTERNAL" },
    });
  });

  it("refuses a malformed result from execute", async () => {
    const sloppy = defineTool({ ...baseDefinition(), execute: () => ({ ok: true }) as never });
    expect(await sloppy.run({ text: "x" })).toMatchObject({
      success: false,
      error: { code: "INTERNAL" },
    });
  });

  it("passes failures through and renders them with code and hint", async () => {
    const failing = defineTool({
      ...baseDefinition(),
      execute: () => fail("FILE_NOT_FOUND", "a.md is missing.", { hint: "List the directory." }),
    });
    const result = await failing.run({ text: "x" });
    expect(failing.renderResult(result)).toBe(
      "Error [FILE_NOT_FOUND]: a.md is missing.\nHint: List the directory.",
    );
  });

  it("times out, returns TIMEOUT and cancels the work through context.signal", async () => {
    let cancelled = false;
    const slow = defineTool({
      ...baseDefinition(),
      timeoutMs: 20,
      execute: (_input, context) =>
        waitForAbort(context, () => {
          cancelled = true;
        }),
    });
    const result = await slow.run({ text: "x" });
    expect(result).toMatchObject({ success: false, error: { code: "TIMEOUT", retryable: true } });
    expect(cancelled).toBe(true);
  });

  it("lets the caller override the timeout per call", async () => {
    const slow = defineTool({
      ...baseDefinition(),
      timeoutMs: 10,
      execute: async () => {
        await new Promise((resolve) => setTimeout(resolve, 40));
        return ok({ text: "late" });
      },
    });
    expect(await slow.run({ text: "x" }, { timeoutMs: 0 })).toEqual(ok({ text: "late" }));
  });

  it("returns ABORTED when the caller aborts mid-call and cancels the work", async () => {
    let cancelled = false;
    let started = false;
    const slow = defineTool({
      ...baseDefinition(),
      execute: (_input, context) => {
        started = true;
        return waitForAbort(context, () => {
          cancelled = true;
        });
      },
    });
    const controller = new AbortController();
    const pending = slow.run({ text: "x" }, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    expect(await pending).toMatchObject({ success: false, error: { code: "ABORTED" } });
    expect(started).toBe(true);
    expect(cancelled).toBe(true);
  });

  it("leaves one abort listener on a signal shared by many calls, whatever their number", async () => {
    const controller = new AbortController();
    const quick = defineTool({ ...baseDefinition(), execute: async ({ text }) => ok({ text }) });
    for (let index = 0; index < 50; index += 1) {
      await quick.run({ text: "x" }, { signal: controller.signal });
    }
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
  });

  it("returns ABORTED without running when the signal is already aborted", async () => {
    let ran = false;
    const tool = defineTool({
      ...baseDefinition(),
      execute: () => {
        ran = true;
        return ok({ text: "" });
      },
    });
    const result = await tool.run({ text: "x" }, { signal: AbortSignal.abort() });
    expect(result).toMatchObject({ success: false, error: { code: "ABORTED" } });
    expect(ran).toBe(false);
  });

  it("passes ids, metadata and progress to execute; a broken listener cannot break it", async () => {
    const seen: ToolProgress[] = [];
    let context: ToolContext | undefined;
    const tool = defineTool({
      ...baseDefinition(),
      execute: (_input, given) => {
        context = given;
        given.progress({ message: "half", completed: 1, total: 2 });
        return ok({ text: "done" });
      },
    });
    await tool.run(
      { text: "x" },
      {
        toolCallId: "call_1",
        threadId: "t1",
        metadata: { user: "u" },
        progress: (update) => seen.push(update),
      },
    );
    expect(seen).toEqual([{ message: "half", completed: 1, total: 2 }]);
    expect(context?.toolCallId).toBe("call_1");
    expect(context?.threadId).toBe("t1");
    expect(context?.metadata).toEqual({ user: "u" });
    const broken = await tool.run(
      { text: "x" },
      {
        progress: () => {
          throw new Error("listener bug");
        },
      },
    );
    expect(broken).toEqual(ok({ text: "done" }));
  });

  it("renders data as JSON by default and survives a throwing renderer", async () => {
    const plain = defineTool({ ...baseDefinition(), render: undefined });
    expect(plain.renderResult(ok({ text: "x" }))).toBe('{\n  "text": "x"\n}');
    const broken = defineTool({
      ...baseDefinition(),
      render: () => {
        throw new Error("bad render");
      },
    });
    expect(broken.renderResult(ok({ text: "x" }))).toContain("Error [INTERNAL]");
    const huge = defineTool({ ...baseDefinition(), render: undefined });
    expect(huge.renderResult(ok({ text: "y".repeat(60_000) }))).toMatch(
      /…\[truncated: [\d,]+ more characters/,
    );
  });

  it("overrides name and description", async () => {
    const renamed = echo.withOverrides({
      name: "say",
      description: "Say it back to test the wiring.",
    });
    expect(renamed.name).toBe("say");
    expect(renamed.description).toBe("Say it back to test the wiring.");
    expect(await renamed.run({ text: "a" })).toEqual(ok({ text: "a" }));
    expect(() => echo.withOverrides({ name: "Bad-Name" })).toThrow(AgentoolError);
  });

  it("refuses a bad definition at definition time", () => {
    expect(() => defineTool({ ...baseDefinition(), name: "ReadFile" })).toThrow(/name must match/);
    expect(() => defineTool({ ...baseDefinition(), description: " " })).toThrow(/description/);
    expect(() => defineTool({ ...baseDefinition(), input: z.string() as never })).toThrow(
      /zod object/,
    );
    expect(() => defineTool({ ...baseDefinition(), timeoutMs: -1 })).toThrow(/timeoutMs/);
  });
});

function baseDefinition() {
  return {
    name: "probe",
    description: "A probe tool used by the contract's own tests.",
    input: z.object({ text: z.string().describe("Any text.") }),
    execute: ({ text }: { text: string }) => ok({ text }),
    render: ({ text }: { text: string }) => text,
  };
}
