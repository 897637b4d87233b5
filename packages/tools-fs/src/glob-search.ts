import {
  defineTool,
  formatCount,
  formatPageMarker,
  isOffsetPastEnd,
  joinSentences,
  type MountedTools,
  mountedTools,
  offsetPastEnd,
  ok,
  pagingInputShape,
  parseOptions,
  type Tool,
  toolOptionsShape,
} from "@agentool/contract";
import { z } from "zod";
import { createJsLister } from "./internal/js-search.js";
import type { FileLister, ListRequest } from "./internal/search-types.js";
import {
  echoPattern,
  fileNotDirectory,
  pageLimitOptionsShape,
  pathNotFound,
  unlistableOr,
  workspaceOption,
} from "./internal/tool-support.js";
import type { Workspace } from "./workspace.js";

/** The default name of the file-finding tool. */
export const GLOB_SEARCH_TOOL_NAME = "glob_search";

/** Default number of paths per page (the newest first). */
export const DEFAULT_GLOB_LIMIT = 200;

/**
 * The former name of {@link DEFAULT_GLOB_LIMIT}.
 *
 * @deprecated use {@link DEFAULT_GLOB_LIMIT} (the page size; `glob_search` now pages with `offset`).
 */
export const DEFAULT_GLOB_MAX_RESULTS = DEFAULT_GLOB_LIMIT;

/** Default highest `limit` a model may ask for. */
export const DEFAULT_GLOB_MAX_LIMIT = 2_000;

/** Default time limit of one listing: 30 seconds. */
export const DEFAULT_GLOB_TIMEOUT_MS = 30_000;

/**
 * Field names other toolsets use, accepted silently by `glob_search` (alias → field).
 */
export const GLOB_SEARCH_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  glob: "pattern",
  head_limit: "limit",
  max_results: "limit",
});

/** Why a glob search found nothing. */
export type GlobEmptyReason = "no_match" | "only_hidden_or_ignored";

/** One file found. */
export interface GlobSearchFile {
  /** Workspace path, relative to the root (POSIX). */
  path: string;
  /** Last modification, ISO 8601. */
  modified: string;
}

/** What `glob_search` returns (every key snake_case). */
export interface GlobSearchToolData {
  /** The glob. */
  pattern: string;
  /** The searched directory as shown to the model (`.` for the root). */
  path: string;
  /** 1-based position of this page's first file (newest first). */
  offset: number;
  /** The page size that applied. */
  limit: number;
  /** This page's files, newest first (ties by path). */
  files: GlobSearchFile[];
  /** Matching files in all. */
  total: number;
  /** The `offset` of the next page; absent on the last page. */
  next_offset?: number;
  /** Whether files after this page were left out. */
  truncated: boolean;
  /** Why the result is empty, when it is. */
  empty_reason?: GlobEmptyReason;
  /** A hidden or ignored file that matches, when the result is empty because of that. */
  example_path?: string;
  /** Why the result is empty and what to do, when it is. */
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
  /** Paths per page when the model gives no limit. Default {@link DEFAULT_GLOB_LIMIT} (200). */
  defaultLimit?: number;
  /** Highest limit a model may ask for. Default {@link DEFAULT_GLOB_MAX_LIMIT} (2,000). */
  maxLimit?: number;
  /** Time limit of one listing in ms (`0` = none). Default {@link DEFAULT_GLOB_TIMEOUT_MS}. */
  timeoutMs?: number;
  /**
   * Names of the tools mounted beside this one (`grep_search`, `list_directory`…); the
   * description and hints name only these. `createFsTools` passes what it mounts. Default: none.
   */
  mountedTools?: readonly string[];
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
  ...toolOptionsShape,
  workspace: workspaceOption,
  lister: listerOption.optional(),
  ...pageLimitOptionsShape,
  // No upper bound, unlike the shared shape's one day.
  timeoutMs: z.number().int().min(0).optional(),
});

function createGlobSearchInputSchema(maxLimit: number, defaultLimit: number) {
  const paging = pagingInputShape({ unit: "file", defaultLimit, maxLimit });
  return z.object({
    pattern: z
      .string()
      .min(1)
      .describe(
        "Glob over paths, e.g. 'src/**/*.ts', '*.{md,mdx}'; without '/' it matches names at any depth.",
      ),
    path: z.string().optional().describe("Directory to search in (default the whole workspace)."),
    offset: paging.offset.describe("1-based first file (default 1)."),
    limit: paging.limit.describe(`Most files (default ${defaultLimit}).`),
  });
}

/** The input schema of `glob_search` (default limits). */
export const globSearchInputSchema = createGlobSearchInputSchema(
  DEFAULT_GLOB_MAX_LIMIT,
  DEFAULT_GLOB_LIMIT,
);

/** The input of `glob_search`. */
export type GlobSearchInput = z.input<typeof globSearchInputSchema>;

/** The `glob_search` tool's type. */
export type GlobSearchTool = Tool<typeof globSearchInputSchema, GlobSearchToolData>;

function defaultDescription(mounted: MountedTools): string {
  return joinSentences(
    [
      "Find files by name or path pattern (glob), newest first; respects .gitignore, skips hidden and secret files.",
      "A cut result ends with the exact call for the next page; or narrow the pattern or path.",
      mounted.when("grep_search", "To search inside files use grep_search."),
    ],
    "\n",
  );
}

/**
 * Renders a `glob_search` result: a summary line, the paths (newest first) and the contract's
 * page marker naming the next call when the page is cut.
 *
 * @param data - the tool's data
 * @param toolName - the tool's name, for the next call the marker names
 * @returns model-facing text
 * @example
 * formatGlobSearchResult(data); // "3 files match \"**\/*.md\" in . (newest first):\nREADME.md\n…"
 */
export function formatGlobSearchResult(
  data: GlobSearchToolData,
  toolName: string = GLOB_SEARCH_TOOL_NAME,
): string {
  if (data.files.length === 0)
    return data.message ?? `No file matches ${echoPattern(data.pattern)} in ${data.path}.`;
  const end = data.offset + data.files.length - 1;
  const head =
    data.offset === 1 && !data.truncated
      ? `${formatCount(data.total)} file${data.total === 1 ? " matches" : "s match"} ${echoPattern(data.pattern)} in ${data.path} (newest first):`
      : `Files ${formatCount(data.offset)}–${formatCount(end)} of ${formatCount(data.total)} matching ${echoPattern(data.pattern)} in ${data.path} (newest first):`;
  const lines = [head, ...data.files.map((file) => file.path)];
  if (data.next_offset !== undefined) {
    const omitted = data.total - data.next_offset + 1;
    lines.push(
      formatPageMarker({
        tool: toolName,
        nextOffset: data.next_offset,
        omitted,
        unit: omitted === 1 ? "file" : "files",
        args: { pattern: data.pattern, path: data.path, limit: data.limit },
      }),
    );
  }
  if (data.message !== undefined) lines.push(data.message);
  return lines.join("\n");
}

/**
 * The hint of an empty result: what to try instead, and only a pattern that differs — a glob
 * without `/` already matches names at any depth, so `**\/` is suggested only for one with `/`;
 * an absolute pattern gets its root-relative form.
 */
function noMatchMessage(
  pattern: string,
  display: string,
  displayRoot: string,
  listDirectory: boolean,
): string {
  const where = display === "." ? "the workspace" : display;
  const tail = `${listDirectory ? ", or call list_directory" : ""}.`;
  const root = displayRoot.replace(/\/+$/, "");
  if (pattern.startsWith("/")) {
    const relative =
      root.length > 0 && pattern.startsWith(`${root}/`)
        ? pattern.slice(root.length + 1)
        : pattern.replace(/^\/+/, "");
    return `No file matches ${echoPattern(pattern)} in ${where}. Globs match paths relative to the workspace root, not absolute paths: try ${JSON.stringify(relative.length > 0 ? relative : "**")}${tail}`;
  }
  if (!pattern.includes("/")) {
    return `No file matches ${echoPattern(pattern)} in ${where} (a glob without '/' already matches names at any depth): try a broader pattern${tail}`;
  }
  if (pattern.startsWith("**/")) {
    return `No file matches ${echoPattern(pattern)} in ${where}: try a broader pattern${tail}`;
  }
  return `No file matches ${echoPattern(pattern)} in ${where}. Globs match paths relative to the workspace root: try "**/${pattern}" or a broader pattern${tail}`;
}

/**
 * Creates the `glob_search` tool: file paths matching a glob, confined to the workspace,
 * `.gitignore`-aware, hidden and secret files excluded, newest first, paged with `offset` /
 * `limit` (exact `total`, the contract's page marker). An empty result says why (no match, or
 * matches only among hidden or ignored files — one cheap extra listing that stops at the first).
 *
 * @param options - the workspace, the engine (default: pure JS over the seam), the caps and the
 *   names of the tools mounted beside it
 * @returns the tool
 * @throws AgentoolError when the options are invalid
 * @example
 * const glob = createGlobSearchTool({ workspace, lister: createRipgrepLister({ root }) });
 * await glob.run({ pattern: "**\/*.test.ts" });
 */
export function createGlobSearchTool(options: GlobSearchToolOptions): GlobSearchTool {
  const parsed = parseOptions("createGlobSearchTool", globSearchOptionsSchema, options);
  const workspace = parsed.workspace;
  const maxLimit = parsed.maxLimit ?? DEFAULT_GLOB_MAX_LIMIT;
  const defaultLimit = Math.min(parsed.defaultLimit ?? DEFAULT_GLOB_LIMIT, maxLimit);
  const lister = parsed.lister ?? createJsLister({ fileSystem: workspace.fileSystem });
  const secretGlobs = workspace.secretPaths;
  const name = parsed.name ?? GLOB_SEARCH_TOOL_NAME;
  const mounted = mountedTools(parsed.mountedTools);
  const input = createGlobSearchInputSchema(
    maxLimit,
    defaultLimit,
  ) as unknown as typeof globSearchInputSchema;

  return defineTool({
    name,
    description: parsed.description ?? defaultDescription(mounted),
    input,
    aliases: GLOB_SEARCH_ALIASES,
    annotations: { title: "Find files by glob", readOnly: true, idempotent: true },
    tags: ["fs:search"],
    timeoutMs: parsed.timeoutMs ?? DEFAULT_GLOB_TIMEOUT_MS,
    execute: async (request, context) => {
      const resolved = await workspace.resolve(request.path, { argument: "path" });
      const stat = await workspace.fileSystem.stat(resolved.real);
      if (stat === undefined) {
        return unlistableOr(
          workspace.fileSystem,
          resolved.real,
          pathNotFound(`path ${resolved.display}`),
        );
      }
      if (stat.type !== "directory")
        return fileNotDirectory(resolved.display, "glob_search needs a directory to search in");
      const pattern = request.pattern.trim();
      const offset = request.offset ?? 1;
      const limit = request.limit ?? defaultLimit;
      const listRequest: ListRequest = {
        path: resolved.real,
        pathType: "directory",
        glob: pattern,
        includeHiddenAndIgnored: false,
        isSecret: (path) => workspace.isSecret(path),
        secretGlobs,
        offset,
        limit,
      };
      const outcome = await lister.list(listRequest, context.signal);
      if (isOffsetPastEnd(offset, outcome.total)) {
        return offsetPastEnd({ tool: name, offset, total: outcome.total, unit: "files" });
      }
      // The engine already cut the page: its paging facts follow from where it ends.
      const end = offset - 1 + outcome.files.length;
      const page: Pick<GlobSearchToolData, "total" | "next_offset" | "truncated"> = {
        total: outcome.total,
        truncated: end < outcome.total,
      };
      if (end < outcome.total) page.next_offset = end + 1;
      const data: GlobSearchToolData = {
        pattern,
        path: resolved.display,
        offset,
        limit,
        files: outcome.files.map((file) => ({
          path: file.path,
          modified: new Date(file.modifiedMs).toISOString(),
        })),
        ...page,
      };
      if (data.files.length === 0) {
        const probe = await lister.list(
          { ...listRequest, includeHiddenAndIgnored: true, offset: 1, limit: 1, anyOnly: true },
          context.signal,
        );
        const example = probe.files[0]?.path;
        if (example !== undefined) {
          data.empty_reason = "only_hidden_or_ignored";
          data.example_path = example;
          data.message = `No visible file matches ${echoPattern(pattern)} in ${resolved.display}; matches exist only among hidden or .gitignore'd files (e.g. ${example}), which ${name} skips.${mounted.when("list_directory", " Use list_directory to look into them.")}`;
        } else {
          data.empty_reason = "no_match";
          data.message = noMatchMessage(
            pattern,
            resolved.display,
            workspace.fileSystem.displayRoot,
            mounted.has("list_directory"),
          );
        }
      }
      return ok(data);
    },
    render: (data) => formatGlobSearchResult(data, name),
  });
}
