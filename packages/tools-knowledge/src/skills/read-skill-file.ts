import {
  createPrivateKeyLineScanner,
  defineTool,
  fail,
  formatCount,
  formatPageMarker,
  formatTruncationMarker,
  isOffsetPastEnd,
  joinSentences,
  mountedTools,
  mountedToolsOption,
  offsetPastEnd,
  ok,
  type PageInfo,
  PRIVATE_KEY_REDACTION,
  pagingInputShape,
  parseOptions,
  type Tool,
  type ToolFailure,
  toolOverridesShape,
} from "@agentool/contract";
import { z } from "zod";
import { skillSourceOption } from "./internal/skill-source-option.js";
import { unknownSkill } from "./internal/unknown-skill.js";
import type { SkillFileRead, SkillSource } from "./skill-source.js";

/** The default name of the tool that reads a skill's files. */
export const READ_SKILL_FILE_TOOL_NAME = "read_skill_file";

/** The default name of the tool that loads a skill (named when mounted). */
export const DEFAULT_USE_SKILL_TOOL_NAME = "use_skill";

/** Default page length in lines: 200. */
export const DEFAULT_READ_SKILL_FILE_LIMIT = 200;

/** Default largest `limit`: 1,000 lines. */
export const DEFAULT_READ_SKILL_FILE_MAX_LIMIT = 1_000;

/** Default cap on one rendered page: 40,000 characters (about 10,000 tokens). */
export const DEFAULT_MAX_SKILL_PAGE_CHARACTERS = 40_000;

/** Default cap on one shown line: 2,000 characters (the rest cut with a marker). */
export const DEFAULT_MAX_SKILL_LINE_CHARACTERS = 2_000;

/** Default time limit of one call: 30 seconds. */
export const DEFAULT_READ_SKILL_FILE_TIMEOUT_MS = 30_000;

/**
 * Field names other toolsets use for `read_skill_file`'s fields, accepted silently: `skill_name`,
 * `name` → `skill`; `file`, `file_path` → `path`.
 */
export const READ_SKILL_FILE_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  skill_name: "skill",
  name: "skill",
  file: "path",
  file_path: "path",
});

/** A line of the page too long to show whole. */
export interface ReadSkillFileCutLine {
  /** The line's number (1-based). */
  line: number;
  /** Characters left out. */
  omitted: number;
}

/** What `read_skill_file` returns (every key snake_case). */
export interface ReadSkillFileToolData extends PageInfo {
  /** The skill. */
  skill: string;
  /** The path inside the skill's folder, normalised. */
  path: string;
  /** The page's lines as they are (each with its line break; a line in `cut_lines` holds only its start). */
  content: string;
  /** First line of the page (1-based; 0 for an empty file). */
  start_line: number;
  /** Last line of the page (0 for an empty file). */
  end_line: number;
  /** The page length that applied (`limit`, or the default); the page marker repeats it. */
  limit: number;
  /** Lines in the file (exact). */
  total: number;
  /** The file's size in bytes. */
  bytes: number;
  /** Lines of the page cut for length: the line's number and the characters left out. */
  cut_lines: ReadSkillFileCutLine[];
  /** Present (`true`) when lines of a private key were replaced by `[private key redacted]`. */
  redacted_private_keys?: true;
}

/** Options of {@link createReadSkillFileTool}. */
export interface ReadSkillFileToolOptions {
  /** Where the skills come from: a `SkillRegistry` or any {@link SkillSource}. */
  registry: SkillSource;
  /** Names of the tools mounted beside this one; the description and messages name only these. Default: none. */
  mountedTools?: readonly string[];
  /** The name of the skill loader to point to when mounted. Default `"use_skill"`. */
  useSkillToolName?: string;
  /** Page length when the model sends no `limit`. Default {@link DEFAULT_READ_SKILL_FILE_LIMIT} (200). */
  defaultLimit?: number;
  /** Largest `limit`. Default {@link DEFAULT_READ_SKILL_FILE_MAX_LIMIT} (1,000). */
  maxLimit?: number;
  /** Most characters of one rendered page. Default {@link DEFAULT_MAX_SKILL_PAGE_CHARACTERS} (40,000). */
  maxPageCharacters?: number;
  /** Most characters shown of one line. Default {@link DEFAULT_MAX_SKILL_LINE_CHARACTERS} (2,000). */
  maxLineCharacters?: number;
  /** Time limit of one call in ms (`0` = none). Default {@link DEFAULT_READ_SKILL_FILE_TIMEOUT_MS}. */
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
  useSkillToolName: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,63}$/)
    .optional(),
  defaultLimit: z.number().int().min(1).max(100_000).optional(),
  maxLimit: z.number().int().min(1).max(100_000).optional(),
  maxPageCharacters: z.number().int().min(1_000).max(10_000_000).optional(),
  maxLineCharacters: z.number().int().min(20).max(1_000_000).optional(),
  timeoutMs: z.number().int().min(0).max(3_600_000).optional(),
});

function createInputSchema(defaultLimit: number, maxLimit: number) {
  return z.object({
    skill: z.string().min(1).max(200).describe("The skill's exact name."),
    path: z
      .string()
      .min(1)
      .max(1_000)
      .describe("The file's path as the skill's file list gives it."),
    ...pagingInputShape({
      unit: "line",
      defaultLimit,
      maxLimit,
      offsetDescription: "1-based first line (default 1).",
      limitDescription: `Most lines (default ${defaultLimit}).`,
    }),
  });
}

/** The input schema of `read_skill_file` (default limits). */
export const readSkillFileInputSchema = createInputSchema(
  DEFAULT_READ_SKILL_FILE_LIMIT,
  DEFAULT_READ_SKILL_FILE_MAX_LIMIT,
);

/** The `read_skill_file` tool's type. */
export type ReadSkillFileTool = Tool<typeof readSkillFileInputSchema, ReadSkillFileToolData>;

/** Options of {@link formatReadSkillFilePage}. */
export interface ReadSkillFileFormatOptions {
  /** The tool that serves the next page. Default `"read_skill_file"`. */
  tool?: string;
}

function numberLine(number: number, text: string): string {
  return `${String(number).padStart(6, " ")}\t${text}`;
}

function pageLines(content: string): string[] {
  if (content.length === 0) return [];
  const lines = content.split("\n");
  if (content.endsWith("\n")) lines.pop();
  return lines.map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
}

function cutMarker(cut: ReadSkillFileCutLine): string {
  return formatTruncationMarker({
    omitted: cut.omitted,
    unit: "characters",
    next: `line ${cut.line} is too long to show whole`,
  });
}

/**
 * Renders one page of a skill file: a header (`skill/path — lines A–B of N`), the numbered lines
 * (`cat -n` style) and, when lines remain, the contract's page marker naming the exact next call.
 *
 * @param data - the tool's data
 * @param options - the tool's name
 * @returns model-facing text
 * @example
 * formatReadSkillFilePage(data);
 * // "deploy-service/references/checklist.md — lines 1–200 of 350\n     1\t# Checklist\n…\n…[truncated: 150 more lines — call read_skill_file again with skill=\"deploy-service\", path=\"references/checklist.md\", limit=200, offset=201]"
 */
export function formatReadSkillFilePage(
  data: ReadSkillFileToolData,
  options: ReadSkillFileFormatOptions = {},
): string {
  const where = `${data.skill}/${data.path}`;
  if (data.total === 0) return `${where} — empty file, 0 lines.`;
  const cuts = new Map(data.cut_lines.map((cut) => [cut.line, cut]));
  const numbered = pageLines(data.content).map((line, index) => {
    const number = data.start_line + index;
    const cut = cuts.get(number);
    return numberLine(number, cut === undefined ? line : `${line} ${cutMarker(cut)}`);
  });
  const marker =
    data.next_offset === undefined
      ? ""
      : `\n${formatPageMarker({
          tool: options.tool ?? READ_SKILL_FILE_TOOL_NAME,
          nextOffset: data.next_offset,
          omitted: data.total - data.end_line,
          unit: "lines",
          args: { skill: data.skill, path: data.path, limit: data.limit },
        })}`;
  return `${where} — lines ${data.start_line}–${data.end_line} of ${data.total}\n${numbered.join("\n")}${marker}`;
}

/**
 * Creates the `read_skill_file` tool: one page of a file inside one skill's own folder — the
 * progressive disclosure a skill's reference files are for. The skill's folder is the sandbox:
 * `..` above it, absolute paths outside it, symlinks that lead out of it (into another skill's
 * folder included) are `INVALID_PATH`; secret paths are `BLOCKED`; a missing file is
 * `FILE_NOT_FOUND`, a folder `INVALID_PATH`, a binary file `UNSUPPORTED`, a file over the
 * registry's cap `TOO_LARGE`, an unknown skill `INVALID_INPUT` with the menu. Pages by line
 * (`offset`, `limit`), capped in characters per page and per line, with the contract's marker
 * naming the next call; private key blocks are redacted.
 *
 * @param options - the registry, the mounted tools, the caps, the overrides
 * @returns the tool
 * @throws AgentoolError for invalid options
 * @example
 * const readSkillFile = createReadSkillFileTool({ registry, mountedTools: ["use_skill"] });
 * await readSkillFile.run({ skill: "deploy-service", path: "references/checklist.md" });
 * // { success: true, data: { skill: "deploy-service", path: "references/checklist.md", content: "# Checklist\n…", start_line: 1, end_line: 40, total: 40, truncated: false, … } }
 */
export function createReadSkillFileTool(options: ReadSkillFileToolOptions): ReadSkillFileTool {
  const parsed = parseOptions("createReadSkillFileTool", optionsSchema, options);
  const registry = parsed.registry;
  const name = parsed.name ?? READ_SKILL_FILE_TOOL_NAME;
  const mounted = mountedTools(parsed.mountedTools);
  const loaderName = parsed.useSkillToolName ?? DEFAULT_USE_SKILL_TOOL_NAME;
  const loader = mounted.has(loaderName) ? loaderName : undefined;
  const maxLimit = parsed.maxLimit ?? DEFAULT_READ_SKILL_FILE_MAX_LIMIT;
  const defaultLimit = Math.min(parsed.defaultLimit ?? DEFAULT_READ_SKILL_FILE_LIMIT, maxLimit);
  const maxPageCharacters = parsed.maxPageCharacters ?? DEFAULT_MAX_SKILL_PAGE_CHARACTERS;
  const maxLineCharacters = parsed.maxLineCharacters ?? DEFAULT_MAX_SKILL_LINE_CHARACTERS;
  const listHint = (skill: string) =>
    loader === undefined
      ? "Use a path from the skill's file list."
      : `Call ${loader} with name=${JSON.stringify(skill)} for the skill's file list.`;

  const description =
    parsed.description ??
    joinSentences(
      [
        `Read a reference file of a skill${loader === undefined ? "" : ` loaded with ${loader}`}, only when a step needs it; only the skill's own folder is readable.`,
        `A page holds at most ${formatCount(maxPageCharacters)} characters; a cut page ends with the exact next call.`,
      ],
      "\n",
    );

  function refusal(skill: string, read: SkillFileRead & { ok: false }): ToolFailure {
    switch (read.problem) {
      case "unknown_skill":
        return unknownSkill(loader ?? name, skill, registry.menu());
      case "invalid_path":
      case "outside_skill":
        return fail("INVALID_PATH", read.detail, {
          hint: `Give a path inside skill ${skill}'s own folder, relative to it (e.g. 'references/guide.md'). ${listHint(skill)}`,
        });
      case "directory":
        return fail("INVALID_PATH", `${read.detail} ${name} reads files.`, {
          hint: listHint(skill),
        });
      case "not_found":
        return fail("FILE_NOT_FOUND", read.detail, { hint: listHint(skill) });
      case "secret":
        return fail("BLOCKED", read.detail, {
          hint: "This is policy, not a typo: secret files of a skill are never read. Carry on without it.",
        });
      case "too_large":
        return fail("TOO_LARGE", read.detail, {
          hint: "Ask the user for the part you need; the skill's other files may hold it.",
        });
      case "binary":
      case "not_regular":
        return fail("UNSUPPORTED", `${read.detail} ${name} reads text files only.`, {
          hint: listHint(skill),
        });
    }
  }

  return defineTool({
    name,
    description,
    input: createInputSchema(defaultLimit, maxLimit) as unknown as typeof readSkillFileInputSchema,
    aliases: READ_SKILL_FILE_ALIASES,
    annotations: { title: "Read a skill file", readOnly: true, idempotent: true },
    tags: ["skills:read"],
    timeoutMs: parsed.timeoutMs ?? DEFAULT_READ_SKILL_FILE_TIMEOUT_MS,
    execute: async (request, context) => {
      const skill = request.skill.trim();
      const read = await registry.readSkillFile(skill, request.path, { signal: context.signal });
      if (!read.ok) return refusal(skill, read);
      const text = read.text;
      const total = text.length === 0 ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
      const offset = request.offset ?? 1;
      const limit = request.limit ?? defaultLimit;
      if (isOffsetPastEnd(offset, total)) {
        return offsetPastEnd({ tool: name, offset, total, unit: "lines" });
      }
      const isKeyLine = createPrivateKeyLineScanner();
      let content = "";
      let shown = 0;
      let characters = 0;
      let redacted = false;
      const cutLines: ReadSkillFileCutLine[] = [];
      let start = 0;
      let line = 1;
      while (start < text.length && shown < limit) {
        const newline = text.indexOf("\n", start);
        const end = newline === -1 ? text.length : newline + 1;
        const raw = text.slice(start, end);
        start = end;
        const key = isKeyLine(raw.replace(/\r?\n$/, ""));
        if (line < offset) {
          line += 1;
          continue;
        }
        const ending = raw.endsWith("\r\n") ? "\r\n" : raw.endsWith("\n") ? "\n" : "";
        let body = raw.slice(0, raw.length - ending.length);
        if (key) {
          body = PRIVATE_KEY_REDACTION;
          redacted = true;
        }
        let cut: ReadSkillFileCutLine | undefined;
        if (body.length > maxLineCharacters) {
          let keep = maxLineCharacters;
          const code = body.charCodeAt(keep - 1);
          if (code >= 0xd800 && code <= 0xdbff) keep -= 1;
          cut = { line, omitted: body.length - keep };
          body = body.slice(0, keep);
        }
        const rendered =
          numberLine(line, body).length + (cut === undefined ? 0 : cutMarker(cut).length + 1) + 1;
        if (shown > 0 && characters + rendered > maxPageCharacters) break;
        content += body + ending;
        if (cut !== undefined) cutLines.push(cut);
        characters += rendered;
        shown += 1;
        line += 1;
      }
      const endLine = shown === 0 ? 0 : offset + shown - 1;
      const data: ReadSkillFileToolData = {
        skill,
        path: read.path,
        content,
        start_line: shown === 0 ? 0 : offset,
        end_line: endLine,
        limit,
        total,
        truncated: false,
        bytes: read.bytes,
        cut_lines: cutLines,
      };
      if (shown > 0 && endLine < total) {
        data.next_offset = endLine + 1;
        data.truncated = true;
      }
      if (redacted) data.redacted_private_keys = true;
      return ok(data);
    },
    render: (data) => formatReadSkillFilePage(data, { tool: name }),
  });
}
