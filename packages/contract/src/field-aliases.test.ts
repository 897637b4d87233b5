import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AgentoolError } from "./agentool-error.js";
import { defineTool } from "./define-tool.js";
import { ok } from "./result.js";
import { selectTools } from "./select-tools.js";

const edit = defineTool({
  name: "edit_probe",
  description: "Replaces text in a probe file. Use it to test field names.",
  input: z.object({
    path: z.string().describe("The file."),
    old_text: z.string().describe("Text to replace."),
    new_text: z.string().describe("Replacement."),
    options: z
      .object({ dry_run: z.boolean().optional().describe("Only show the change.") })
      .optional()
      .describe("Options."),
  }),
  aliases: { file_path: "path" },
  execute: (input) => ok(input),
});

async function message(input: unknown): Promise<string> {
  const result = await edit.run(input);
  if (result.success) throw new Error("expected a failure");
  return result.error.message;
}

describe("unknown fields: did you mean", () => {
  it("suggests the field a model trained on another toolset meant, and lists the known ones", async () => {
    const text = await message({ path: "a", old_string: "x", new_text: "y" });
    expect(text).toContain('unknown field "old_string" — did you mean "old_text"?');
    expect(text).toContain("known fields: path, old_text, new_text, options");
  });

  it("suggests step for a TodoWrite-style content field inside a list", async () => {
    const plan = defineTool({
      name: "plan_probe",
      description: "Records a plan of steps. Use it to test nested suggestions.",
      input: z.object({
        plan: z
          .array(
            z.object({
              step: z.string().describe("Step."),
              status: z.string().describe("Status."),
            }),
          )
          .describe("Steps."),
      }),
      execute: (input) => ok(input),
    });
    const result = await plan.run({ plan: [{ content: "x", status: "pending" }] });
    expect(!result.success && result.error.message).toContain(
      'plan[0]: unknown field "content" — did you mean "step"?',
    );
  });

  it("suggests by spelling and by snake_case", async () => {
    expect(await message({ path: "a", old_text: "x", new_txt: "y" })).toContain(
      'did you mean "new_text"?',
    );
    expect(await message({ path: "a", oldText: "x", new_text: "y" })).toContain(
      'did you mean "old_text"?',
    );
  });

  it("suggests inside nested objects with that object's fields", async () => {
    const text = await message({
      path: "a",
      old_text: "x",
      new_text: "y",
      options: { dryRun: true },
    });
    expect(text).toContain('options: unknown field "dryRun" — did you mean "dry_run"?');
    expect(text).toContain("known fields: dry_run");
  });

  it("gives no suggestion for an unrelated name, only the list", async () => {
    const text = await message({ path: "a", old_text: "x", new_text: "y", zebra: 1 });
    expect(text).toContain('unknown field "zebra" (known fields:');
    expect(text).not.toContain("did you mean");
  });
});

describe("silent aliases", () => {
  it("accepts a declared alias as its field", async () => {
    const result = await edit.run({ file_path: "a.md", old_text: "x", new_text: "y" });
    expect(result).toEqual(ok({ path: "a.md", old_text: "x", new_text: "y" }));
  });

  it("refuses the alias as unknown when the real field is sent too", async () => {
    const text = await message({ file_path: "b.md", path: "a.md", old_text: "x", new_text: "y" });
    expect(text).toContain('unknown field "file_path" — did you mean "path"?');
  });

  it("takes one alias per field: a second alias of the same field is refused, not silently dropped", async () => {
    const move = defineTool({
      name: "move_probe",
      description: "Moves a probe file. Use it to test competing aliases.",
      input: z.object({
        source: z.string().describe("From."),
        destination: z.string().describe("To."),
      }),
      aliases: { from: "source", src: "source", to: "destination" },
      execute: (input) => ok(input),
    });
    const result = await move.run({ from: "a.txt", src: "b.txt", to: "c.txt" });
    expect(result.success).toBe(false);
    expect(!result.success && result.error.message).toContain('unknown field "src"');
    expect(await move.run({ src: "b.txt", to: "c.txt" })).toEqual(
      ok({ source: "b.txt", destination: "c.txt" }),
    );
  });

  it("checks aliases at definition time", () => {
    const base = {
      name: "probe",
      description: "A probe for alias definitions, never run.",
      input: z.object({ path: z.string().describe("Path.") }),
      execute: () => ok(null),
    };
    expect(() => defineTool({ ...base, aliases: { file: "nope" } })).toThrow(AgentoolError);
    expect(() => defineTool({ ...base, aliases: { path: "path" } })).toThrow(
      /already an input field/,
    );
    expect(defineTool({ ...base, aliases: { file: "path" } }).aliases).toEqual({ file: "path" });
  });
});

describe("selectTools", () => {
  const make = (name: string, tags: string[], readOnly: boolean) =>
    defineTool({
      name,
      description: "A probe tool for selection tests only.",
      input: z.object({}),
      tags,
      annotations: { readOnly },
      execute: () => ok(null),
    });
  const tools = [
    make("read_probe", ["fs:read"], true),
    make("write_probe", ["fs:write"], false),
    make("fetch_probe", ["web:read"], true),
  ];

  it("keeps tools with any of the tags, in order", () => {
    expect(selectTools(tools, { tags: ["fs:read", "web:read"] }).map((tool) => tool.name)).toEqual([
      "read_probe",
      "fetch_probe",
    ]);
  });

  it("combines criteria with AND", () => {
    expect(selectTools(tools, { readOnly: false }).map((tool) => tool.name)).toEqual([
      "write_probe",
    ]);
    expect(
      selectTools(tools, { readOnly: true, names: ["read_probe", "write_probe"] }).map(
        (tool) => tool.name,
      ),
    ).toEqual(["read_probe"]);
    expect(selectTools(tools, { excludeNames: ["read_probe"] })).toHaveLength(2);
    expect(selectTools(tools)).toHaveLength(3);
  });
});
