import type { AnyTool } from "@agentool/contract";
import type { ComputerDisplay } from "@agentool/tools-gui";
import type { InteractionHandler } from "@agentool/tools-interact";
import type { CorpusSource } from "@agentool/tools-knowledge/node";
import type { ServerMode } from "./command-line.js";
import type { FamilyName } from "./family-names.js";
import { buildToolSetFrom } from "./internal/build-tool-set.js";
import { EAGER_FAMILY_MODULES } from "./internal/eager-family-modules.js";
import { SEARCH_MEMORY_NAME } from "./internal/family-tool-names.js";
import type { KnowledgeFolder } from "./internal/knowledge-folder-paths.js";
import type { KnowledgeResources } from "./knowledge-resources.js";

export { disposeDesignTransport } from "./internal/build-design-gui-tools.js";
export {
  disposeBrowserTool,
  disposePreviewTool,
  MCP_MEMORY_NAMESPACE,
} from "./internal/build-tool-set.js";
export { isGitRepositoryRoot } from "./internal/tool-set-plan.js";

/** The name of the second `search_knowledge`, over what `remember` saved. */
export const SEARCH_MEMORY_TOOL_NAME = SEARCH_MEMORY_NAME;

/** What the server was configured to serve (fixed for the server's life). */
export interface ToolSetConfiguration {
  /** The families to serve. */
  families: readonly FamilyName[];
  /** The fs and git mode. */
  mode: ServerMode;
  /** Executables `run_command` may start (read-write mode); empty = no `run_command`. */
  allowCommands: readonly string[];
  /** SearXNG base URL for `web_search`; absent = no `web_search`. */
  searxng: string | undefined;
  /** Hosts `web_fetch` and the browser's pages may reach although private or loopback. */
  allowHosts: readonly string[];
  /**
   * The knowledge folder `search_knowledge` searches, relative to the root (normalised, see
   * `normalizeKnowledgeDir`). Default `""`: the root itself.
   */
  knowledgeDir?: string;
  /**
   * Where read-only mode keeps knowledge indexes (outside the root; one sub-folder per knowledge
   * folder). Default: `$XDG_CACHE_HOME/agentool/knowledge`, else `~/.cache/agentool/knowledge`,
   * else a folder in `os.tmpdir()` — the first outside the root.
   */
  knowledgeCacheDirectory?: string;
  /** The memory family's file store folder (absolute); absent = no memory family. */
  memoryDirectory?: string;
  /** The skills family's folder (absolute); absent = no skills family. */
  skillsDirectory?: string;
  /** The display the gui family drives; absent = no `computer` tool. */
  guiDisplay?: ComputerDisplay;
  /** The host's Figma token; absent = the design family serves `svg_read` only. */
  figmaToken?: string;
  /** The Figma API origin; absent = `https://api.figma.com`. */
  figmaApiUrl?: string;
  /** List `outputSchema` for tools that declare output. Default `false`. */
  outputSchemas?: boolean;
  /**
   * Each request is served by a fresh server (stateless HTTP): the tools that need a session —
   * `remember` / `search_memory` (in this process's memory) and the interact family (requests
   * and notifications to the client) — are left out with a note. Default `false`.
   */
  stateless?: boolean;
}

/** What changes during a session: the confinement root and what the client can do. */
export interface ToolSetState {
  /** The real path of the confinement root of fs and git; absent = fs and git left out. */
  root: string | undefined;
  /**
   * Whether the client answers MCP elicitation requests (`ask_user` and `confirm` need it);
   * `undefined` before the client has initialized (left out, without a note).
   */
  elicitation: boolean | undefined;
  /** The interaction handler of the interact family. */
  handler: InteractionHandler;
  /**
   * The knowledge family's memory and corpus sources, kept across rebuilds. Default: fresh ones
   * for this build (memory then lasts as long as the tools).
   */
  knowledge?: KnowledgeResources;
}

/** The knowledge folder a tool set searches, with where its index lives. */
export interface ServedKnowledgeFolder extends KnowledgeFolder {
  /** The sidecar index folder: `<folder>/.knowledge` (read-write) or a cache folder outside the root (read-only). */
  indexDirectory: string;
  /** Where `web_fetch` saves pages (root-relative), when it saves. */
  webPages: string | undefined;
}

/** The tools of one session state, per family, with a note for each family left out. */
export interface ToolSet {
  /** The tools, in family order. */
  tools: AnyTool[];
  /** Family → its tool names (families left out are absent). */
  families: Map<FamilyName, string[]>;
  /** Why a configured family (or part of it) is not served, one line each. */
  notes: string[];
  /** The knowledge folder `search_knowledge` searches, when it is served. */
  knowledgeFolder?: ServedKnowledgeFolder;
  /** The corpus source behind `search_knowledge`, when it is served. */
  corpus?: CorpusSource;
}

/**
 * Builds the tools of one session state: each configured family over the state's root, every
 * tool told the names of all the tools mounted beside it (`mountedTools` / `alsoMounted`), so no
 * description points to a tool this server does not serve.
 *
 * - core: `think`, `update_plan`.
 * - fs: `createNodeFsTools({ root, mode })`; with `allowCommands` in read-write mode also
 *   `run_command` (`allowedCommands`, sandboxed where bubblewrap works). Needs a root.
 * - git: `createGitTools({ root, mode })`, only when the root has its own `.git` directory.
 * - code: `createCodeTools({ root, mode })` — the read tools (repo_map, code_outline, find_symbol,
 *   find_references, ast_search), plus replace_symbol and ast_rewrite in read-write mode. Needs a
 *   root.
 * - office: `createOfficeTools({ root, mode })` — read_document and read_image, plus
 *   write_document, edit_document, edit_sheet and edit_notebook in read-write mode. Needs a root.
 * - design: `svg_read` over the root; with `figmaToken`, `design_read` and `design_tokens`, plus
 *   `design_export` (images saved under the root) in read-write mode.
 * - web: `wiki_search` and the SSRF-guarded `web_fetch` (`allowHosts`); `web_search` over
 *   SearXNG when `searxng` is set.
 * - interact: `notify` always; `ask_user` and `confirm` only when the client supports elicitation.
 * - preview: the `preview` tool over the root (headless Chromium).
 * - browser: the `browser` tool (the live web in headless Chromium, every request through the
 *   guarded transport opened by `allowHosts`), only in read-write mode and not when stateless.
 * - gui: the `computer` tool on `guiDisplay`, only in read-write mode.
 *
 * @param configuration - families, mode, commands, SearXNG, allowed hosts
 * @param state - root, elicitation support, interaction handler
 * @returns the tools, their names per family and notes on what was left out
 * @throws AgentoolError when a family refuses its options (e.g. a bad SearXNG URL)
 * @example
 * const { tools } = buildToolSet(
 *   { families: ["core", "fs"], mode: "read-only", allowCommands: [], searxng: undefined, allowHosts: [] },
 *   { root: "/work/project", elicitation: false, handler },
 * );
 */
export function buildToolSet(configuration: ToolSetConfiguration, state: ToolSetState): ToolSet {
  return buildToolSetFrom(EAGER_FAMILY_MODULES, configuration, state);
}
