import {
  defineTool,
  formatCount,
  formatTruncationMarker,
  joinSentences,
  mountedTools,
  mountedToolsOption,
  ok,
  parseOptions,
  type Tool,
  toolOverridesShape,
} from "@agentool/contract";
import { z } from "zod";
import { skillSourceOption } from "./internal/skill-source-option.js";
import { unknownSkill } from "./internal/unknown-skill.js";
import type { SkillSource } from "./skill-source.js";

/** The default name of the tool that loads a skill. */
export const USE_SKILL_TOOL_NAME = "use_skill";

/** The default name of the tool that reads a skill's files (named when mounted). */
export const DEFAULT_READ_SKILL_FILE_TOOL_NAME = "read_skill_file";

/** Default time limit of one `use_skill` call: 30 seconds. */
export const DEFAULT_USE_SKILL_TIMEOUT_MS = 30_000;

/**
 * Field names other toolsets use for `use_skill`'s `name`, accepted silently: `skill`,
 * `skill_name`.
 */
export const USE_SKILL_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  skill: "name",
  skill_name: "name",
});

/** One file of a skill, as `use_skill` lists it. */
export interface UseSkillFile {
  /** The path inside the skill's folder (what `read_skill_file` takes). */
  path: string;
  /** Size in bytes. */
  bytes: number;
  /** Line count; absent for a binary or too large file. */
  lines?: number;
  /** Present (`true`) for a binary file. */
  binary?: true;
  /** Present (`true`) for a file over the read cap. */
  too_large?: true;
}

/** What `use_skill` returns (every key snake_case). */
export interface UseSkillToolData {
  /** The skill's name. */
  name: string;
  /** When to use it. */
  description: string;
  /** The procedure: SKILL.md after its front matter, as it is. */
  body: string;
  /** The line of SKILL.md where the body starts (SKILL.md pages from there with `read_skill_file`). */
  body_start_line: number;
  /** The skill's other files in path order (never their content), at most the listing cap. */
  files: UseSkillFile[];
  /** How many files the skill holds (exact unless `files_total_at_least`). */
  files_total: number;
  /** Present (`true`) when `files_total` is a lower bound. */
  files_total_at_least?: true;
}

/** Options of {@link createUseSkillTool}. */
export interface UseSkillToolOptions {
  /** Where the skills come from: a `SkillRegistry` (`@agentool/tools-knowledge/node`) or any {@link SkillSource}. */
  registry: SkillSource;
  /** Names of the tools mounted beside this one; the description and results name only these. Default: none. */
  mountedTools?: readonly string[];
  /** The name of the file reader to point to when it is mounted. Default `"read_skill_file"`. */
  readSkillFileToolName?: string;
  /**
   * Whether the host puts the skill menu (`renderSkillMenu`) in the model's instructions: the
   * description points there only then. `false` for a host that cannot (an MCP client shows
   * no server-made prompt): the description then says an unknown name returns the list.
   * Default `true`.
   */
  menuInInstructions?: boolean;
  /** Time limit of one call in ms (`0` = none). Default {@link DEFAULT_USE_SKILL_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** Replaces the tool's name. */
  name?: string;
  /** Replaces the tool's description. */
  description?: string;
}

const optionsSchema = z.object({
  ...toolOverridesShape,
  registry: skillSourceOption,
  mountedTools: mountedToolsOption,
  readSkillFileToolName: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,63}$/)
    .optional(),
  timeoutMs: z.number().int().min(0).max(3_600_000).optional(),
  menuInInstructions: z.boolean().optional(),
});

/** The input schema of `use_skill`. */
export const useSkillInputSchema = z.object({
  name: z.string().min(1).max(200).describe("The skill's exact name."),
});

/** The `use_skill` tool's type. */
export type UseSkillTool = Tool<typeof useSkillInputSchema, UseSkillToolData>;

/** Options of {@link formatUseSkillResult}. */
export interface UseSkillFormatOptions {
  /** The file reader to name, or `undefined` when none is mounted. */
  readSkillFileToolName?: string;
}

/**
 * Renders a loaded skill for the model: a heading with the name and description, the body as it
 * is, and the reference files with their line counts (never their content) — with the call that
 * reads one when a file reader is mounted.
 *
 * @param data - the tool's data
 * @param options - the file reader to name
 * @returns model-facing text
 * @example
 * formatUseSkillResult(data, { readSkillFileToolName: "read_skill_file" });
 * // "Skill deploy-service — Roll out a service.\n\n# Steps\n…\n\nReference files (2) — read one only when a step needs it, with read_skill_file skill=\"deploy-service\" path=\"…\":\n- references/checklist.md (40 lines, 1,204 bytes)\n…"
 */
export function formatUseSkillResult(
  data: UseSkillToolData,
  options: UseSkillFormatOptions = {},
): string {
  const body = data.body.replace(/\s+$/, "");
  const lines = [
    `Skill ${data.name} — ${data.description}`,
    "",
    body.length > 0 ? body : "(The skill has no body beyond its description.)",
    "",
  ];
  if (data.files_total === 0) {
    lines.push("This skill has no reference files.");
    return lines.join("\n");
  }
  const count = `${data.files_total_at_least === true ? "at least " : ""}${formatCount(data.files_total)}`;
  const reader = options.readSkillFileToolName;
  lines.push(
    reader === undefined
      ? `Reference files (${count}), listed with their size (they cannot be read here):`
      : `Reference files (${count}) — read one only when a step needs it, with ${reader} skill=${JSON.stringify(data.name)} path="…":`,
  );
  for (const file of data.files) {
    const size = `${formatCount(file.bytes)} ${file.bytes === 1 ? "byte" : "bytes"}`;
    const facts =
      file.binary === true
        ? `binary, ${size}`
        : file.too_large === true
          ? `${size}, too large to read`
          : `${formatCount(file.lines ?? 0)} ${file.lines === 1 ? "line" : "lines"}, ${size}`;
    lines.push(`- ${file.path} (${facts})`);
  }
  const omitted = data.files_total - data.files.length;
  if (omitted > 0 || data.files_total_at_least === true) {
    lines.push(
      formatTruncationMarker({
        omitted: Math.max(omitted, 1),
        unit: "files",
        atLeast: data.files_total_at_least === true,
        next:
          reader === undefined
            ? "the listing shows the first files in path order"
            : `${reader} reads any of them by path`,
      }),
    );
  }
  return lines.join("\n");
}

/**
 * Creates the `use_skill` tool: loads a skill from the menu and returns its procedure (the body of
 * its SKILL.md) as the tool result — a skill must last through the tool loop, which a
 * one-off prompt injection does not — with its reference files listed by path, line count and
 * size, never read (the model reads one with `read_skill_file` when a step needs it). An unknown
 * name is `INVALID_INPUT` with the closest name and the menu in the hint; the registry is scanned
 * again first, so a skill installed mid-session is found.
 *
 * @param options - the registry, the mounted tools, the overrides
 * @returns the tool
 * @throws AgentoolError for invalid options
 * @example
 * const registry = new SkillRegistry(".agents/skills");
 * const useSkill = createUseSkillTool({ registry, mountedTools: ["read_skill_file"] });
 * await useSkill.run({ name: "deploy-service" });
 * // { success: true, data: { name: "deploy-service", body: "# Steps\n…", files: [{ path: "references/checklist.md", lines: 40, bytes: 1204 }], … } }
 */
export function createUseSkillTool(options: UseSkillToolOptions): UseSkillTool {
  const parsed = parseOptions("createUseSkillTool", optionsSchema, options);
  const registry = parsed.registry;
  const name = parsed.name ?? USE_SKILL_TOOL_NAME;
  const mounted = mountedTools(parsed.mountedTools);
  const readerName = parsed.readSkillFileToolName ?? DEFAULT_READ_SKILL_FILE_TOOL_NAME;
  const reader = mounted.has(readerName) ? readerName : undefined;
  const description =
    parsed.description ??
    joinSentences(
      [
        parsed.menuInInstructions === false
          ? "Load a skill by its name: a written procedure for one kind of task."
          : "Load a skill: a written procedure for one kind of task, listed by name in the skill menu of your instructions.",
        "When a task matches a skill, call this first, then follow the procedure step by step.",
        reader === undefined
          ? "It returns the procedure and the skill's reference files."
          : `It returns the procedure and the skill's reference files; read one with ${reader} only when a step needs it.`,
        "An unknown name lists the skills.",
      ],
      "\n",
    );
  return defineTool({
    name,
    description,
    input: useSkillInputSchema,
    aliases: USE_SKILL_ALIASES,
    annotations: { title: "Use a skill", readOnly: true, idempotent: true },
    tags: ["skills:read"],
    timeoutMs: parsed.timeoutMs ?? DEFAULT_USE_SKILL_TIMEOUT_MS,
    execute: async (request, context) => {
      const wanted = request.name.trim();
      const skill = await registry.loadSkill(wanted, { signal: context.signal });
      if (skill === undefined) return unknownSkill(name, wanted, registry.menu());
      const data: UseSkillToolData = {
        name: skill.name,
        description: skill.description,
        body: skill.body,
        body_start_line: skill.bodyStartLine,
        files: skill.files.map((file) => ({ ...file })),
        files_total: skill.filesTotal,
      };
      if (skill.filesAtLeast) data.files_total_at_least = true;
      return ok(data);
    },
    render: (data) =>
      formatUseSkillResult(data, reader === undefined ? {} : { readSkillFileToolName: reader }),
  });
}
