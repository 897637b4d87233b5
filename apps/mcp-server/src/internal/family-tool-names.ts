// The tool names each family serves, written out so that planning a tool set (which names a
// server serves, in which family) loads no family package: the lazy server plans at start-up and
// imports a family only when one of its tools is first listed or called. family-tool-names.test.ts
// holds every list equal to the constants the packages export.

/** `core`: think, update_plan. */
export const CORE_TOOL_NAMES: readonly string[] = Object.freeze(["think", "update_plan"]);

/** `fs` in read-only mode (`fsToolNames({ mode: "read-only" })`). */
export const FS_READ_TOOL_NAMES: readonly string[] = Object.freeze([
  "read_file",
  "list_directory",
  "file_stats",
  "grep_search",
  "glob_search",
  "extract_toc",
  "count_words",
]);

/** What `fs` adds in read-write mode (`fsToolNames({ mode: "read-write" })` after the reads). */
export const FS_WRITE_TOOL_NAMES: readonly string[] = Object.freeze([
  "write_file",
  "edit_file",
  "multi_edit",
  "apply_patch",
  "create_directory",
  "delete_file",
  "move_file",
  "copy_file",
]);

/** `run_command` (`RUN_COMMAND_TOOL_NAME`). */
export const RUN_COMMAND_NAME = "run_command";

/** `git` in read-only mode (`GIT_READ_TOOL_NAMES`). */
export const GIT_READ_NAMES: readonly string[] = Object.freeze([
  "git_status",
  "git_diff",
  "git_log",
  "git_show",
  "git_branch",
]);

/** What `git` adds in read-write mode (`GIT_WRITE_TOOL_NAMES`). */
export const GIT_WRITE_NAMES: readonly string[] = Object.freeze(["git_add", "git_commit"]);

/** `code` in read-only mode (`CODE_READ_TOOL_NAMES` of `@agentool/tools-code`). */
export const CODE_READ_NAMES: readonly string[] = Object.freeze([
  "repo_map",
  "code_outline",
  "find_symbol",
  "find_references",
  "ast_search",
]);

/** What `code` adds in read-write mode (`CODE_WRITE_TOOL_NAMES`). */
export const CODE_WRITE_NAMES: readonly string[] = Object.freeze(["replace_symbol", "ast_rewrite"]);

/** `office` in read-only mode (`OFFICE_READ_TOOL_NAMES` of `@agentool/tools-office`). */
export const OFFICE_READ_NAMES: readonly string[] = Object.freeze(["read_document", "read_image"]);

/** What `office` adds in read-write mode (`OFFICE_WRITE_TOOL_NAMES`). */
export const OFFICE_WRITE_NAMES: readonly string[] = Object.freeze([
  "write_document",
  "edit_document",
  "edit_sheet",
  "edit_notebook",
]);

/** `design` without a Figma token (`DESIGN_OFFLINE_TOOL_NAMES` of `@agentool/tools-design`). */
export const DESIGN_OFFLINE_NAMES: readonly string[] = Object.freeze(["svg_read"]);

/** What a Figma token adds to `design` in read-only mode (`DESIGN_READ_TOOL_NAME`, `DESIGN_TOKENS_TOOL_NAME`). */
export const DESIGN_FIGMA_READ_NAMES: readonly string[] = Object.freeze([
  "design_read",
  "design_tokens",
]);

/** What a Figma token adds to `design` in read-write mode (`DESIGN_EXPORT_TOOL_NAME`): it saves images under the root. */
export const DESIGN_EXPORT_NAME = "design_export";

/** The web tools (`WEB_SEARCH_TOOL_NAME`, `WIKI_SEARCH_TOOL_NAME`, `WEB_FETCH_TOOL_NAME`). */
export const WEB_NAMES = Object.freeze({
  search: "web_search",
  wiki: "wiki_search",
  fetch: "web_fetch",
});

/** The knowledge tools (`SEARCH_KNOWLEDGE_TOOL_NAME`, `REMEMBER_TOOL_NAME`). */
export const KNOWLEDGE_NAMES = Object.freeze({
  searchKnowledge: "search_knowledge",
  remember: "remember",
});

/** `memory` (`MEMORY_TOOL_NAME_LIST`). */
export const MEMORY_NAMES: readonly string[] = Object.freeze([
  "memory_write",
  "memory_read",
  "memory_search",
  "memory_list",
  "memory_delete",
]);

/** `skills` (`SKILL_TOOL_NAMES`). */
export const SKILL_NAMES: readonly string[] = Object.freeze(["use_skill", "read_skill_file"]);

/** `preview` (`PREVIEW_TOOL_NAME`). */
export const PREVIEW_NAME = "preview";

/** `browser` (`BROWSER_TOOL_NAME` of `@agentool/tools-preview/browser`). */
export const BROWSER_NAME = "browser";

/** `gui` (`COMPUTER_TOOL_NAME` of `@agentool/tools-gui`). */
export const GUI_NAME = "computer";

/** The interact tools (`ASK_USER_TOOL_NAME`, `CONFIRM_TOOL_NAME`, `NOTIFY_TOOL_NAME`). */
export const INTERACT_NAMES = Object.freeze({
  askUser: "ask_user",
  confirm: "confirm",
  notify: "notify",
});

/** The sidecar index folder of a read-write knowledge folder (`CORPUS_INDEX_FOLDER`). */
export const KNOWLEDGE_INDEX_FOLDER = ".knowledge";

/** The name of the second `search_knowledge`, over what `remember` saved. */
export const SEARCH_MEMORY_NAME = "search_memory";
