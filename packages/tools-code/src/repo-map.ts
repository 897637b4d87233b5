import {
  defineTool,
  fail,
  givenCallArguments,
  isOffsetPastEnd,
  joinSentences,
  type MountedTools,
  mountedTools,
  offsetPastEnd,
  ok,
  parseOptions,
  type Tool,
} from "@agentool/contract";
import type { FileLister } from "@agentool/tools-fs";
import { workspaceFromOptions } from "@agentool/tools-fs/node";
import { z } from "zod";
import { listerFor, listerOption } from "./internal/ast-grep/options.js";
import { type CodeToolOptions, codeToolOptionsShape } from "./internal/code-support.js";
import { collectFiles, type MappedFile } from "./internal/repo-map/collect-files.js";
import { DEFAULT_MAX_CACHED_FILES } from "./internal/repo-map/file-facts-cache.js";
import { fitMap, type RepoMapFile } from "./internal/repo-map/fit-map.js";
import {
  estimateTokens,
  formatRepoMap,
  REPO_MAP_TOOL_NAME,
  type RepoMapToolData,
} from "./internal/repo-map/format-repo-map.js";
import type { RankFocus } from "./internal/repo-map/reference-graph.js";
import { RepoMapState } from "./internal/repo-map/repo-map-state.js";

export type { MapSkipped } from "./internal/repo-map/collect-files.js";
export type { RepoMapFile, RepoMapSymbol } from "./internal/repo-map/fit-map.js";
export {
  CHARACTERS_PER_TOKEN,
  estimateTokens,
  formatRepoMap,
  REPO_MAP_TOOL_NAME,
  type RepoMapFormatOptions,
  type RepoMapToolData,
} from "./internal/repo-map/format-repo-map.js";

/** Default token budget of a map. */
export const DEFAULT_REPO_MAP_BUDGET_TOKENS = 1_024;
/** Default largest budget a model may ask for. */
export const DEFAULT_REPO_MAP_MAX_BUDGET_TOKENS = 16_384;
/** Default most source files ranked per call (the newest, when there are more). */
export const DEFAULT_REPO_MAP_MAX_FILES = 20_000;
/** Default largest file ranked, in bytes (bigger ones are usually generated). */
export const DEFAULT_REPO_MAP_MAX_FILE_BYTES = 1_048_576;
/** Default time limit of one call: 60 seconds. */
export const DEFAULT_REPO_MAP_TIMEOUT_MS = 60_000;

/** Options of {@link createRepoMapTool}. */
export interface RepoMapToolOptions extends CodeToolOptions {
  /** Lists the files to map. Default: ripgrep over the workspace's root on disk. */
  lister?: FileLister;
  /** Budget when the model gives none. Default {@link DEFAULT_REPO_MAP_BUDGET_TOKENS}. */
  defaultBudgetTokens?: number;
  /** Largest budget a model may ask for. Default {@link DEFAULT_REPO_MAP_MAX_BUDGET_TOKENS}. */
  maxBudgetTokens?: number;
  /** Most files ranked per call. Default {@link DEFAULT_REPO_MAP_MAX_FILES}. */
  maxFiles?: number;
  /** Most files the instance's cache remembers. Default 50,000. */
  maxCachedFiles?: number;
}

const optionsSchema = z.object({
  ...codeToolOptionsShape,
  lister: listerOption.optional(),
  defaultBudgetTokens: z.number().int().min(128).max(1_000_000).optional(),
  maxBudgetTokens: z.number().int().min(128).max(1_000_000).optional(),
  maxFiles: z.number().int().min(1).max(1_000_000).optional(),
  maxCachedFiles: z.number().int().min(1).max(10_000_000).optional(),
});

function createInputSchema(defaultBudget: number, maxBudget: number) {
  return z.object({
    path: z
      .string()
      .optional()
      .describe("Directory (or file) to map (default the whole workspace)."),
    budget_tokens: z
      .number()
      .int()
      .min(128)
      .max(maxBudget)
      .optional()
      .describe(`Most tokens the map may take (default ${defaultBudget}, at most ${maxBudget}).`),
    focus: z
      .array(z.string().min(1).max(300))
      .max(20)
      .optional()
      .describe("Files, directories or symbol names you work on: the ranking leans towards them."),
    offset: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe(
        "1-based rank of the first file to show (default 1). A cut map ends with a marker naming the next call's offset.",
      ),
  });
}

/** The input schema of `repo_map` (default budgets). */
export const repoMapInputSchema = createInputSchema(
  DEFAULT_REPO_MAP_BUDGET_TOKENS,
  DEFAULT_REPO_MAP_MAX_BUDGET_TOKENS,
);

/** The input of `repo_map`. */
export type RepoMapInput = z.input<typeof repoMapInputSchema>;

/** The `repo_map` tool's type. */
export type RepoMapTool = Tool<typeof repoMapInputSchema, RepoMapToolData>;

function defaultDescription(mounted: MountedTools): string {
  const symbolTools = mounted.filter(["find_symbol", "code_outline"]);
  return joinSentences([
    "Overview of a codebase to start with: its most-used files with their classes, functions and methods as signatures (no bodies) and line ranges, ranked by how often other files use their names, cut to a token budget.",
    "Pass focus (files or names you work on) to rank around them, path to map one folder.",
    symbolTools.length > 0 || mounted.has("read_file")
      ? `Then ${[
          mounted.when("find_symbol", "find_symbol finds one definition"),
          mounted.when("code_outline", "code_outline lists all of one file"),
          mounted.when("read_file", "read_file opens the lines"),
        ]
          .filter((part) => part.length > 0)
          .join(", ")}.`
      : "",
    "A cut map ends with the call for the next files.",
  ]);
}

const IDENTIFIER = /^[\p{L}_$][\p{L}\p{N}_$]*(?:\.[\p{L}_$][\p{L}\p{N}_$]*)*$/u;

/** Resolves the focus entries to files (a path or a folder) and names. */
function resolveFocus(
  focus: readonly string[],
  files: readonly MappedFile[],
  idOf: (name: string) => number | undefined,
): { focus: RankFocus; unmatched: string[] } {
  const fileIndexes = new Set<number>();
  const names = new Set<number>();
  const unmatched: string[] = [];
  for (const entry of focus) {
    const trimmed = entry.trim().replace(/^\.\//, "").replace(/\/+$/, "");
    let matched = false;
    files.forEach((file, index) => {
      if (file.path === trimmed || file.path.startsWith(`${trimmed}/`)) {
        fileIndexes.add(index);
        matched = true;
      }
    });
    if (!matched && IDENTIFIER.test(trimmed)) {
      for (const part of trimmed.split(".")) {
        const id = idOf(part);
        if (id !== undefined) {
          names.add(id);
          matched = true;
        }
      }
    }
    if (!matched) unmatched.push(entry);
  }
  return { focus: { files: fileIndexes, names }, unmatched };
}

/**
 * Creates the `repo_map` tool: aider's repository map, done our way. The scope's source files
 * (the workspace's lister: `.gitignore`, hidden and secret files honoured) are scanned lexically
 * for the names they define and use; PageRank over "file uses a name another file defines"
 * (personalised towards `focus`) ranks files; the best files' symbols come from tree-sitter and
 * are scored by the rank flowing to their names; the best symbols that fit `budget_tokens`
 * (estimated as characters ÷ 3) are shown. Each file's scan and symbols are cached by size +
 * mtime in this instance (bounded), so a warm call reads only changed files; no tree is kept.
 *
 * @param options - the workspace, the lister, budgets, caps and overrides
 * @returns the tool
 * @throws AgentoolError when the options are invalid
 * @example
 * const repoMap = createRepoMapTool({ root: "/work/repo" });
 * await repoMap.run({ budget_tokens: 2048, focus: ["src/parser.ts"] });
 */
export function createRepoMapTool(options: RepoMapToolOptions): RepoMapTool {
  const parsed = parseOptions("createRepoMapTool", optionsSchema, options);
  const workspace = workspaceFromOptions("createRepoMapTool", parsed);
  const lister = listerFor("createRepoMapTool", workspace, parsed.lister);
  const maxBudget = parsed.maxBudgetTokens ?? DEFAULT_REPO_MAP_MAX_BUDGET_TOKENS;
  const defaultBudget = Math.min(
    parsed.defaultBudgetTokens ?? DEFAULT_REPO_MAP_BUDGET_TOKENS,
    maxBudget,
  );
  const maxFiles = parsed.maxFiles ?? DEFAULT_REPO_MAP_MAX_FILES;
  const maxFileBytes = parsed.maxFileBytes ?? DEFAULT_REPO_MAP_MAX_FILE_BYTES;
  const name = parsed.name ?? REPO_MAP_TOOL_NAME;
  const mounted = mountedTools(parsed.mountedTools);
  const state = new RepoMapState(parsed.maxCachedFiles ?? DEFAULT_MAX_CACHED_FILES);
  const formatOptions = {
    toolName: name,
    ...(mounted.has("read_file") ? { readTool: "read_file" } : {}),
  };
  const input = createInputSchema(defaultBudget, maxBudget) as unknown as typeof repoMapInputSchema;

  return defineTool({
    name,
    description: parsed.description ?? defaultDescription(mounted),
    input,
    annotations: { title: "Repository map", readOnly: true, idempotent: true },
    tags: ["code", "code:read"],
    timeoutMs: parsed.timeoutMs ?? DEFAULT_REPO_MAP_TIMEOUT_MS,
    execute: async (request, context) => {
      const resolved = await workspace.resolve(request.path, { argument: "path", allowRoot: true });
      const stat = await workspace.fileSystem.stat(resolved.real);
      if (stat === undefined) {
        return fail("FILE_NOT_FOUND", `path ${resolved.display} does not exist.`, {
          hint: `Omit path to map the whole workspace${mounted.has("list_directory") ? ", or find the folder with list_directory" : ""}.`,
        });
      }
      const budget = request.budget_tokens ?? defaultBudget;
      const collected = await collectFiles({
        workspace,
        lister,
        cache: state.cache,
        listing: state.listing,
        path: resolved.real,
        pathType: stat.type === "directory" ? "directory" : "file",
        maxFiles,
        maxFileBytes,
        signal: context.signal,
      });
      const { focus, unmatched } = resolveFocus(request.focus ?? [], collected.files, (focusName) =>
        state.cache.knownId(focusName),
      );
      const ranking = state.rankingFor(collected.fingerprint, collected.files, focus);
      const skipped = collected.skipped;
      const anySkipped = skipped.too_large + skipped.unreadable + skipped.over_file_cap > 0;
      const base: RepoMapToolData = {
        path: resolved.display,
        ...(request.focus === undefined ? {} : { focus: request.focus }),
        ...(unmatched.length === 0 ? {} : { unmatched_focus: unmatched }),
        budget_tokens: budget,
        estimated_tokens: 0,
        source_files: collected.sourceFiles,
        ranked_files: collected.files.length,
        offset: request.offset ?? 1,
        total: collected.files.length,
        files: [],
        omitted_files: 0,
        omitted_symbols: 0,
        truncated: false,
        ...(anySkipped ? { skipped_files: skipped } : {}),
        call_arguments: givenCallArguments(request),
      };
      if (isOffsetPastEnd(base.offset, base.total))
        return offsetPastEnd({ tool: name, offset: base.offset, total: base.total, unit: "files" });
      const complete = (
        files: readonly RepoMapFile[],
        nextOffset: number | undefined,
      ): RepoMapToolData => {
        const data: RepoMapToolData = { ...base, files: [...files] };
        data.omitted_files = nextOffset === undefined ? 0 : base.total - nextOffset + 1;
        data.omitted_symbols = files.reduce(
          (sum, file) => sum + file.total_symbols - file.symbols.length,
          0,
        );
        data.truncated = nextOffset !== undefined;
        if (nextOffset !== undefined) data.next_offset = nextOffset;
        if (data.truncated && budget < maxBudget)
          data.next_budget_tokens = Math.min(maxBudget, budget * 4);
        return data;
      };
      const page = await fitMap({
        workspace,
        files: collected.files,
        ranking,
        focus,
        idOf: (symbolName) => state.cache.knownId(symbolName),
        budgetTokens: budget,
        measure: (draft, nextOffset) =>
          estimateTokens(formatRepoMap(complete(draft, nextOffset), formatOptions)),
        offset: base.offset,
        maxFileBytes,
        signal: context.signal,
      });
      const data = complete(page.files, page.nextOffset);
      data.estimated_tokens = estimateTokens(formatRepoMap(data, formatOptions));
      if (page.files.length === 0) explainEmpty(data, collected.sourceFiles);
      return ok(data);
    },
    render: (data) => formatRepoMap(data, formatOptions),
  });
}

function explainEmpty(data: RepoMapToolData, sourceFiles: number): void {
  data.truncated = false;
  delete data.next_budget_tokens;
  delete data.next_offset;
  if (sourceFiles === 0) {
    data.empty_reason = "no_source_files";
    data.message = `no source file (TypeScript, JavaScript, Python, Go, Rust, Java, C/C++, C#, Ruby, PHP, Bash) in ${data.path} that is not hidden, .gitignore'd or secret. Map another path.`;
  } else {
    data.empty_reason = "no_symbols";
    data.message = `the ${sourceFiles} source files in ${data.path} declare no symbol that fits budget_tokens=${data.budget_tokens}; raise budget_tokens or map a narrower path.`;
  }
}
