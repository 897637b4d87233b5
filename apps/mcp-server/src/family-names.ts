/** The tool families the server can mount, in the order their tools are listed. */
export const FAMILY_NAMES = [
  "core",
  "fs",
  "git",
  "code",
  "office",
  "design",
  "web",
  "knowledge",
  "memory",
  "skills",
  "interact",
  "preview",
  "browser",
  "gui",
] as const;

/**
 * One tool family: `core` (think, update_plan), `fs` (files, search, run_command), `git`,
 * `code` (repo_map, code_outline, find_symbol, find_references, ast_search; replace_symbol and
 * ast_rewrite in read-write mode — tree-sitter and ast-grep over the root; only when asked for
 * with `--families`), `office` (read_document, read_image; write_document, edit_document,
 * edit_sheet and edit_notebook in read-write mode — Word, Excel, PowerPoint, OpenDocument, PDF,
 * notebooks and images under the root; only when asked for with `--families`, which also takes
 * `documents` for it), `design` (svg_read over the root; design_read and design_tokens with the
 * host's Figma token; design_export in read-write mode; only when asked for with `--families`),
 * `web` (web_fetch, wiki_search, web_search), `knowledge` (search_knowledge, remember,
 * search_memory), `memory` (memory_write, memory_read, memory_search, memory_list, memory_delete
 * over the file store in `--memory-dir`), `skills` (use_skill, read_skill_file over the skills
 * folder in `--skills-dir`), `interact` (ask_user, confirm, notify), `preview` (preview: HTML
 * artifacts under the root in headless Chromium; only when asked for with `--families`),
 * `browser` (browser: the live web in headless Chromium, every request through the SSRF-guarded
 * transport; only when asked for with `--families`, and only in read-write mode) or `gui`
 * (computer: screenshots, mouse and keyboard on an X11 display — the host's `DISPLAY` or an Xvfb of
 * the server's own; only when asked for with `--families`, and only in read-write mode).
 */
export type FamilyName = (typeof FAMILY_NAMES)[number];

/**
 * Tells whether a string names a family.
 *
 * @param value - a family name as typed
 * @returns `true` for one of {@link FAMILY_NAMES}
 * @example
 * isFamilyName("fs"); // true
 */
export function isFamilyName(value: string): value is FamilyName {
  return (FAMILY_NAMES as readonly string[]).includes(value);
}
