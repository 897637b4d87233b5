import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "./define-tool.js";
import { ok } from "./result.js";

/** A probe with the real input field names of one family's tool. */
function probe(name: string, fields: readonly string[]) {
  const shape: Record<string, z.ZodOptional<z.ZodString>> = {};
  for (const field of fields) shape[field] = z.string().optional().describe("A field.");
  return defineTool({
    name,
    description: "A probe with a real tool's field names, never run for real.",
    input: z.object(shape),
    execute: (input) => ok(input),
  });
}

/** The field names of the real tools (as their zod schemas declare them). */
const FIELDS = {
  think: ["thought"],
  read_file: ["path", "offset", "limit"],
  grep_search: [
    "pattern",
    "path",
    "glob",
    "ignore_case",
    "literal",
    "context_lines",
    "output_mode",
    "offset",
    "limit",
  ],
  move_file: ["source", "destination", "overwrite"],
  git_diff: ["path", "staged", "base", "ref", "context_lines", "files_only", "offset", "limit"],
  git_add: ["files"],
  git_commit: ["message", "files", "all"],
  web_search: ["query", "limit", "allowed_domains", "blocked_domains"],
  web_fetch: ["url", "offset", "limit", "raw", "max_entries"],
  notify: ["message", "level"],
  memory_search: ["query", "tags", "offset", "limit"],
  memory_list: ["prefix", "tags", "offset", "limit"],
  edit_file: ["path", "old_text", "new_text", "replace_all", "expected_sha"],
} as const;

describe("did you mean: field names models bring from other toolsets", () => {
  it.each([
    // the MCP reference fetch server's names
    { sent: "max_length", tool: "web_fetch", expected: "limit" },
    { sent: "start_index", tool: "web_fetch", expected: "offset" },
    { sent: "question", tool: "web_search", expected: "query" },
    { sent: "question", tool: "memory_search", expected: "query" },
    { sent: "question", tool: "notify", expected: "message" },
    { sent: "msg", tool: "git_commit", expected: "message" },
    { sent: "msg", tool: "notify", expected: "message" },
    { sent: "target", tool: "move_file", expected: "destination" },
    { sent: "target", tool: "read_file", expected: "path" },
    { sent: "target", tool: "web_fetch", expected: "url" },
    // think's own field name elsewhere
    { sent: "text", tool: "think", expected: "thought" },
    { sent: "text", tool: "grep_search", expected: "pattern" },
    { sent: "line_start", tool: "read_file", expected: "offset" },
    { sent: "end_line", tool: "read_file", expected: "limit" },
    { sent: "path", tool: "git_add", expected: "files" },
    { sent: "path", tool: "memory_list", expected: "prefix" },
    // a table name is never matched by containment; its own targets say what it means
    { sent: "sha", tool: "edit_file", expected: "expected_sha" },
  ] as const)("$sent on $tool → did you mean $expected", async ({ sent, tool, expected }) => {
    const result = await probe(tool, FIELDS[tool]).run({ [sent]: "x" });
    expect(result.success).toBe(false);
    expect(!result.success && result.error.message).toContain(
      `unknown field ${JSON.stringify(sent)} — did you mean ${JSON.stringify(expected)}?`,
    );
  });

  it("suggests nothing rather than a field that only contains the name (text on git_diff is not context_lines)", async () => {
    const result = await probe("git_diff", FIELDS.git_diff).run({ text: "x" });
    expect(!result.success && result.error.message).toContain(
      'unknown field "text" (known fields:',
    );
    expect(!result.success && result.error.message).not.toContain("did you mean");
  });
});

const NESTED_ALIASES = { "edits[].old_string": "old_text", "edits[].new_string": "new_text" };

describe("nested fields", () => {
  const strictNested = (aliases: Record<string, string> = {}) =>
    defineTool({
      name: "edits_probe",
      description: "A probe with a list of strict objects, like multi_edit's edits.",
      input: z.object({
        edits: z
          .array(
            z
              .object({
                old_text: z.string().describe("Old."),
                new_text: z.string().describe("New."),
              })
              .strict(),
          )
          .describe("Edits."),
      }),
      aliases,
      execute: (input) => ok(input),
    });

  it("reports an unknown nested field once", async () => {
    const result = await strictNested().run({
      edits: [{ old_text: "a", new_text: "b", extra: 1 }],
    });
    const message = !result.success ? result.error.message : "";
    expect(message.split('unknown field "extra"')).toHaveLength(2);
  });

  it("reports an unknown nested field once when another field is missing too", async () => {
    const result = await strictNested().run({ edits: [{ old_text: "a", zebra: 1 }] });
    const message = !result.success ? result.error.message : "";
    expect(message).toContain("edits[0].new_text: required field is missing");
    expect(message.split('unknown field "zebra"')).toHaveLength(2);
  });

  it("accepts a declared nested alias in every element of a list", async () => {
    expect(
      await strictNested(NESTED_ALIASES).run({
        edits: [
          { old_string: "a", new_string: "b" },
          { old_text: "c", new_string: "d" },
        ],
      }),
    ).toEqual(
      ok({
        edits: [
          { old_text: "a", new_text: "b" },
          { old_text: "c", new_text: "d" },
        ],
      }),
    );
  });

  it("refuses a nested alias sent beside its real field, with a did you mean", async () => {
    const result = await strictNested(NESTED_ALIASES).run({
      edits: [{ old_text: "a", old_string: "z", new_text: "b" }],
    });
    expect(!result.success && result.error.message).toContain(
      'edits[0]: unknown field "old_string" — did you mean "old_text"?',
    );
  });
});
