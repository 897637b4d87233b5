import { AgentoolError, type AnyTool, parseOptions } from "@agentool/contract";
import type { TextSearcher, Workspace } from "@agentool/tools-fs";
import {
  createRipgrepLister,
  createRipgrepSearcher,
  workspaceFromOptions,
} from "@agentool/tools-fs/node";
import { z } from "zod";
import { createAstRewriteTool } from "./ast-rewrite.js";
import { createAstSearchTool } from "./ast-search.js";
import { createCodeOutlineTool } from "./code-outline.js";
import { createFindReferencesTool } from "./find-references.js";
import { createFindSymbolTool } from "./find-symbol.js";
import { codeToolOptionsShape } from "./internal/code-support.js";
import { createReplaceSymbolTool } from "./replace-symbol.js";
import { createRepoMapTool } from "./repo-map.js";

/** What the code tools may do: only look, or also rewrite code. */
export type CodeToolsMode = "read-only" | "read-write";

/** Options of {@link createCodeTools}. */
export interface CodeToolsOptions {
  /** The directory every path is confined to (required unless `workspace` and `searcher` are given). */
  root?: string;
  /** A workspace from `@agentool/tools-fs`'s `createWorkspace`, shared with the file tools (then give `searcher` too). */
  workspace?: Workspace;
  /** The text search `find_symbol` shortlists with. Default: ripgrep over `root`. */
  searcher?: TextSearcher;
  /** `"read-only"` (default): `repo_map`, `code_outline`, `find_symbol`, `find_references`, `ast_search`. `"read-write"` adds `replace_symbol`, `ast_rewrite`. */
  mode?: CodeToolsMode;
  /** Secret-path globs (with `root`). Default: the contract's `DEFAULT_SECRET_PATHS`. */
  secretPaths?: readonly string[];
  /** Globs excepted from `secretPaths` (with `root`). Default: `DEFAULT_SECRET_EXCEPTIONS`. */
  secretExceptions?: readonly string[];
  /** Largest file read, in bytes. Default 8 MB. */
  maxFileBytes?: number;
  /** Per-call time limit in milliseconds of every tool (`0`: none). Default: 30,000 for each, except `ast_search` 60,000 and `ast_rewrite` 120,000. */
  timeoutMs?: number;
  /** Offer `expected_sha` on `replace_symbol` and `expected_shas` on `ast_rewrite` (a file's sha as last seen; `CONFLICT` if it changed). Default `false` (they cost definition tokens on every call). */
  expectedShas?: boolean;
  /** Tools of other families mounted beside these (e.g. `["read_file", "grep_search", "edit_file"]`); descriptions may name them. */
  mountedTools?: readonly string[];
}

/** The tools every mode mounts. */
export const CODE_READ_TOOL_NAMES: readonly string[] = [
  "repo_map",
  "code_outline",
  "find_symbol",
  "find_references",
  "ast_search",
];

/** The tools only `mode: "read-write"` adds. */
export const CODE_WRITE_TOOL_NAMES: readonly string[] = ["replace_symbol", "ast_rewrite"];

const { name: _name, description: _description, ...sharedShape } = codeToolOptionsShape;

const codeToolsOptionsSchema = z
  .object({
    ...sharedShape,
    mode: z.enum(["read-only", "read-write"]).optional(),
    expectedShas: z.boolean().optional(),
    searcher: z
      .custom<TextSearcher>(
        (value) =>
          typeof value === "object" &&
          value !== null &&
          typeof (value as TextSearcher).search === "function",
        { error: "expected a TextSearcher (createRipgrepSearcher from @agentool/tools-fs/node)" },
      )
      .optional(),
  })
  .strict();

/**
 * Creates the code tools for one workspace: `code_outline` and `find_symbol` always,
 * `replace_symbol` in `mode: "read-write"`. One workspace (confinement, secrets, `.git`
 * refusal, write locks) is shared by all of them — pass the file tools' own `workspace` to
 * share it with them too.
 *
 * @param options - the root (or workspace and searcher), the mode and caps
 * @returns the tools, ready for an adapter
 * @throws AgentoolError when the options are invalid
 * @example
 * import { toLangChainTools } from "@agentool/adapters/langchain";
 * const tools = toLangChainTools(createCodeTools({ root: "/work/repo", mode: "read-write" }));
 */
export function createCodeTools(options: CodeToolsOptions): AnyTool[] {
  const parsed = parseOptions("createCodeTools", codeToolsOptionsSchema, options);
  const { mode, searcher: givenSearcher, expectedShas, ...shared } = parsed;
  const readWrite = mode === "read-write";
  const workspace = workspaceFromOptions("createCodeTools", shared);
  const searcher =
    givenSearcher ??
    (shared.root === undefined ? undefined : createRipgrepSearcher({ root: shared.root }));
  const names = [...CODE_READ_TOOL_NAMES, ...(readWrite ? CODE_WRITE_TOOL_NAMES : [])];
  const { root: _root, ...rest } = shared;
  // Every tool shares the one workspace (and its write locks).
  const common = { ...rest, workspace, mountedTools: [...(rest.mountedTools ?? []), ...names] };
  if (searcher === undefined) {
    throw new AgentoolError(
      "createCodeTools: with a workspace, also give searcher (createRipgrepSearcher({ root }) from @agentool/tools-fs/node).",
    );
  }
  const tools: AnyTool[] = [
    createRepoMapTool({
      ...common,
      ...(shared.root === undefined ? {} : { lister: createRipgrepLister({ root: shared.root }) }),
    }),
    createCodeOutlineTool(common),
    createFindSymbolTool({ ...common, searcher }),
    createFindReferencesTool({ ...common, searcher }),
  ];
  // The ast-grep tools take only what they accept (their options are strict).
  const astCommon = {
    workspace,
    mountedTools: common.mountedTools,
    ...(shared.timeoutMs === undefined ? {} : { timeoutMs: shared.timeoutMs }),
    ...(shared.maxFileBytes === undefined ? {} : { maxFileBytes: shared.maxFileBytes }),
    ...(shared.root === undefined ? {} : { lister: createRipgrepLister({ root: shared.root }) }),
  };
  tools.push(createAstSearchTool(astCommon));
  if (readWrite) {
    const checked = expectedShas === undefined ? {} : { expectedShas };
    tools.push(createReplaceSymbolTool({ ...common, ...checked }));
    tools.push(createAstRewriteTool({ ...astCommon, ...checked }));
  }
  return tools;
}
