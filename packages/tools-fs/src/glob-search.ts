import {
  defineTool,
  fail,
  formatTruncationMarker,
  ok,
  parseOptions,
  type Tool,
  toolOverridesShape,
} from "@agentool/contract";
import { z } from "zod";
import { createJsLister } from "./internal/js-search.js";
import type { FileLister, ListRequest } from "./internal/search-types.js";
import { guardFileSystem, workspaceOption } from "./internal/tool-support.js";
import type { Workspace } from "./workspace.js";

/** The default name of the file-finding tool. */
export const GLOB_SEARCH_TOOL_NAME = "glob_search";

/** Default number of paths returned (the newest ones). */
export const DEFAULT_GLOB_MAX_RESULTS = 200;

/** Default time limit of one listing: 30 seconds. */
export const DEFAULT_GLOB_TIMEOUT_MS = 30_000;

/** Why a glob search found nothing. */
export type GlobEmptyReason = "no_match" | "only_hidden_or_ignored";

/** One file found. */
export interface GlobSearchFile {
  /** Workspace path, relative to the root (POSIX). */
  path: string;
  /** Last modification, ISO 8601. */
  modified: string;
}

/** What `glob_search` returns. */
export interface GlobSearchToolData {
  /** The glob. */
  pattern: string;
  /** The searched directory as shown to the model (`.` for the root). */
  path: string;
  /** Matching files, newest first. */
  files: GlobSearchFile[];
  /** Matching files left out beyond the cap. */
  omitted: number;
  /** Why the result is empty, when it is. */
  emptyReason?: GlobEmptyReason;
  /** What the model should know (why it is empty, how to get the rest). */
  message?: string;
}

/** Options of {@link createGlobSearchTool}. */
export interface GlobSearchToolOptions {
  /** The workspace (confinement, secret paths, seam). */
  workspace: Workspace;
  /**
   * The listing engine. Default: the pure-JS engine over the workspace's seam. The Node entry
   * passes `createRipgrepLister({ root })` from `@agentool/tools-fs/node`.
   */
  lister?: FileLister;
  /** Most paths returned. Default {@link DEFAULT_GLOB_MAX_RESULTS} (200). */
  maxResults?: number;
  /** Time limit of one listing in ms (`0` = none). Default {@link DEFAULT_GLOB_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** Replaces the tool's name. */
  name?: string;
  /** Replaces the tool's description. */
  description?: string;
}

const listerOption = z.custom<FileLister>(
  (value) =>
    typeof value === "object" && value !== null && typeof (value as FileLister).list === "function",
  { error: "expected a FileLister ({ kind, list(request, signal) })" },
);

const globSearchOptionsSchema = z.object({
  ...toolOverridesShape,
  workspace: workspaceOption,
  lister: listerOption.optional(),
  maxResults: z.number().int().min(1).max(100_000).optional(),
  timeoutMs: z.number().int().min(0).optional(),
});

/** The input schema of `glob_search`. */
export const globSearchInputSchema = z.object({
  pattern: z
    .string()
    .min(1)
    .describe(
      "Glob over paths relative to the workspace root, e.g. '**/*.ts', 'src/**/test_*.py', '*.{md,mdx}'. A glob without '/' matches file names at any depth.",
    ),
  path: z
    .string()
    .optional()
    .describe(
      "Directory to search in, relative to the workspace root. Default: the whole workspace.",
    ),
});

/** The input of `glob_search`. */
export type GlobSearchInput = z.input<typeof globSearchInputSchema>;

/** The `glob_search` tool's type. */
export type GlobSearchTool = Tool<typeof globSearchInputSchema, GlobSearchToolData>;

function defaultDescription(maxResults: number): string {
  return [
    "Find files by name or path pattern (glob), newest first. Use it to locate files before reading",
    "them, e.g. '**/*.test.ts' or 'docs/**/*.md'; a pattern without '/' matches names at any depth.",
    "Respects .gitignore and skips hidden and secret files. Returns paths relative to the root.",
    `At most ${maxResults} paths; a truncated result says how to narrow it (a more specific pattern or a`,
    "path). To search inside files use grep_search.",
  ].join(" ");
}

/**
 * Renders a `glob_search` result: a summary line, the paths (newest first) and the truncation
 * marker when paths were left out.
 *
 * @param data - the tool's data
 * @returns model-facing text
 * @example
 * formatGlobSearchResult(data); // "3 files match \"**\/*.md\" in . (newest first):\nREADME.md\n…"
 */
export function formatGlobSearchResult(data: GlobSearchToolData): string {
  if (data.files.length === 0)
    return data.message ?? `No file matches ${JSON.stringify(data.pattern)} in ${data.path}.`;
  const total = data.files.length + data.omitted;
  const lines = [
    `${total} file${total === 1 ? "" : "s"} match ${JSON.stringify(data.pattern)} in ${data.path} (newest first):`,
    ...data.files.map((file) => file.path),
  ];
  if (data.message !== undefined) lines.push(data.message);
  return lines.join("\n");
}

/**
 * Creates the `glob_search` tool: file paths matching a glob, confined to the workspace,
 * `.gitignore`-aware, hidden and secret files excluded, newest first, capped with the standard
 * truncation marker. An empty result says why (no match, or matches only among hidden or ignored
 * files).
 *
 * @param options - the workspace, the engine (default: pure JS over the seam) and the caps
 * @returns the tool
 * @throws AgentoolError when the options are invalid
 * @example
 * const glob = createGlobSearchTool({ workspace, lister: createRipgrepLister({ root }) });
 * await glob.run({ pattern: "**\/*.test.ts" });
 */
export function createGlobSearchTool(options: GlobSearchToolOptions): GlobSearchTool {
  const parsed = parseOptions("createGlobSearchTool", globSearchOptionsSchema, options);
  const workspace = parsed.workspace;
  const maxResults = parsed.maxResults ?? DEFAULT_GLOB_MAX_RESULTS;
  const lister = parsed.lister ?? createJsLister({ fileSystem: workspace.fileSystem });
  const secretGlobs = workspace.secretPaths;

  return defineTool({
    name: parsed.name ?? GLOB_SEARCH_TOOL_NAME,
    description: parsed.description ?? defaultDescription(maxResults),
    input: globSearchInputSchema,
    annotations: { title: "Find files by glob", readOnly: true, idempotent: true },
    tags: ["fs:search"],
    timeoutMs: parsed.timeoutMs ?? DEFAULT_GLOB_TIMEOUT_MS,
    execute: (request, context) =>
      guardFileSystem(async () => {
        const resolved = await workspace.resolve(request.path, { argument: "path" });
        const stat = await workspace.fileSystem.stat(resolved.real);
        if (stat === undefined) {
          return fail("FILE_NOT_FOUND", `path ${resolved.display} does not exist.`, {
            hint: "Omit path to search the whole workspace, or call list_directory to see what exists.",
          });
        }
        if (stat.type !== "directory") {
          return fail(
            "INVALID_INPUT",
            `path ${resolved.display} is a file; glob_search needs a directory.`,
            {
              hint: "Pass the directory that holds it, or omit path.",
            },
          );
        }
        const pattern = request.pattern.trim();
        const listRequest: ListRequest = {
          path: resolved.real,
          pathType: "directory",
          glob: pattern,
          includeHiddenAndIgnored: false,
          isSecret: (path) => workspace.isSecret(path),
          secretGlobs,
          limit: maxResults,
        };
        const outcome = await lister.list(listRequest, context.signal);
        const data: GlobSearchToolData = {
          pattern,
          path: resolved.display,
          files: outcome.files.map((file) => ({
            path: file.path,
            modified: new Date(file.modifiedMs).toISOString(),
          })),
          omitted: outcome.omitted,
        };
        if (outcome.omitted > 0) {
          data.message = formatTruncationMarker({
            omitted: outcome.omitted,
            unit: "files",
            next: `only the ${maxResults} newest are shown; use a more specific pattern (e.g. "src/**/*.ts") or a path to see the rest`,
          });
        } else if (data.files.length === 0) {
          const probe = await lister.list(
            { ...listRequest, includeHiddenAndIgnored: true, limit: 1 },
            context.signal,
          );
          const example = probe.files[0]?.path;
          if (example !== undefined) {
            data.emptyReason = "only_hidden_or_ignored";
            data.message = `No visible file matches ${JSON.stringify(pattern)} in ${resolved.display}; matches exist only among hidden or .gitignore'd files (e.g. ${example}), which glob_search skips. Use list_directory to look into them.`;
          } else {
            data.emptyReason = "no_match";
            data.message = `No file matches ${JSON.stringify(pattern)} in ${resolved.display}. Globs match paths relative to the root: try "**/${pattern.replace(/^\*\*\//, "")}" or a broader pattern, or call list_directory.`;
          }
        }
        return ok(data);
      }),
    render: formatGlobSearchResult,
  });
}
