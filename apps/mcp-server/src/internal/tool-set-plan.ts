import { lstatSync, realpathSync } from "node:fs";
import { isAbsolute, join, relative } from "node:path";
import type { FamilyName } from "../family-names.js";
import type { ServedKnowledgeFolder, ToolSetConfiguration, ToolSetState } from "../tool-sets.js";
import {
  BROWSER_NAME,
  CODE_READ_NAMES,
  CODE_WRITE_NAMES,
  CORE_TOOL_NAMES,
  DESIGN_EXPORT_NAME,
  DESIGN_FIGMA_READ_NAMES,
  DESIGN_OFFLINE_NAMES,
  FS_READ_TOOL_NAMES,
  FS_WRITE_TOOL_NAMES,
  GIT_READ_NAMES,
  GIT_WRITE_NAMES,
  GUI_NAME,
  INTERACT_NAMES,
  KNOWLEDGE_INDEX_FOLDER,
  KNOWLEDGE_NAMES,
  MEMORY_NAMES,
  OFFICE_READ_NAMES,
  OFFICE_WRITE_NAMES,
  PREVIEW_NAME,
  RUN_COMMAND_NAME,
  SEARCH_MEMORY_NAME,
  SKILL_NAMES,
  WEB_NAMES,
} from "./family-tool-names.js";
import {
  type KnowledgeFolder,
  knowledgeCacheDirectory,
  resolveKnowledgeFolder,
  WEB_PAGES_FOLDER,
} from "./knowledge-folder-paths.js";

// Planning a tool set loads no family package: the names come from family-tool-names.ts.

/**
 * Whether a directory is the top level of a git work tree the git tools can serve: it holds its
 * own `.git` directory (the git family refuses a `.git` file, a linked worktree or a submodule
 * checkout anyway).
 *
 * @param root - an existing directory
 * @returns `true` when `<root>/.git` is a directory
 * @example
 * isGitRepositoryRoot(process.cwd());
 */
export function isGitRepositoryRoot(root: string): boolean {
  try {
    return lstatSync(join(root, ".git")).isDirectory();
  } catch {
    return false;
  }
}

function realpathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** What a tool set serves: each family's switch, the folders and the notes. */
export interface Plan {
  core: boolean;
  fs: boolean;
  runCommand: boolean;
  git: boolean;
  /** `code`: asked for, with a root to confine it to. */
  code: boolean;
  /** `office`: asked for, with a root to confine it to. */
  office: boolean;
  /** `design`'s parts: svg_read (a root), the Figma readers (a token), design_export (both, read-write). */
  design: DesignPlan | undefined;
  web: boolean;
  webSearch: boolean;
  interact: boolean;
  preview: boolean;
  /** `browser`: asked for, read-write mode, a server that keeps sessions. */
  browser: boolean;
  /** `gui`: asked for, read-write mode, a display to drive. */
  gui: boolean;
  elicitation: boolean;
  knowledge: boolean;
  /** `remember` and `search_memory` (not in a stateless server). */
  excerpts: boolean;
  /** The folder `search_knowledge` searches; absent = no `search_knowledge`. */
  knowledgeFolder: ServedKnowledgeFolder | undefined;
  /** The memory family's folder, when it is served. */
  memoryDirectory: string | undefined;
  notes: string[];
}

/** Which of the design family's tools a tool set serves. */
export interface DesignPlan {
  /** `svg_read`: needs a root. */
  svg: boolean;
  /** `design_read`, `design_tokens`: need the host's Figma token. */
  figma: boolean;
  /** `design_export`: a token, a root to save into and read-write mode. */
  export: boolean;
}

function planDesign(
  configuration: ToolSetConfiguration,
  root: string | undefined,
  notes: string[],
): DesignPlan | undefined {
  if (!configuration.families.includes("design")) return undefined;
  const figma = configuration.figmaToken !== undefined;
  const design = {
    svg: root !== undefined,
    figma,
    export: figma && root !== undefined && configuration.mode === "read-write",
  };
  if (!figma) {
    notes.push(
      "design_read, design_tokens and design_export left out: no Figma token (set FIGMA_API_KEY or FIGMA_ACCESS_TOKEN in the server's environment); svg_read reads SVG exports offline.",
    );
  }
  if (root === undefined) {
    notes.push(
      `svg_read${figma ? " and design_export" : ""} left out: no root (pass --root <dir>, or use a client that sends MCP roots); they read and save files under the root.`,
    );
  } else if (figma && configuration.mode !== "read-write") {
    notes.push(
      "design_export left out: it saves images under the root, which only read-write mode allows.",
    );
  }
  return design.svg || design.figma ? design : undefined;
}

function planGui(configuration: ToolSetConfiguration, notes: string[]): boolean {
  if (!configuration.families.includes("gui")) return false;
  if (configuration.mode !== "read-write") {
    notes.push(
      "computer left out: it drives a desktop with the mouse and keyboard (anything its user can do), which only read-write mode allows; use --mode read-write.",
    );
    return false;
  }
  if (configuration.guiDisplay === undefined) {
    notes.push("computer left out: no display to drive (guiDisplay).");
    return false;
  }
  return true;
}

function planKnowledgeFolder(
  configuration: ToolSetConfiguration,
  root: string | undefined,
  notes: string[],
): ServedKnowledgeFolder | undefined {
  if (root === undefined) {
    notes.push(
      "search_knowledge left out: no root (pass --root <dir>, or use a client that sends MCP roots); remember and search_memory stay.",
    );
    return undefined;
  }
  let folder: KnowledgeFolder;
  try {
    folder = resolveKnowledgeFolder(root, configuration.knowledgeDir ?? "");
  } catch (error) {
    notes.push(
      `search_knowledge left out: ${error instanceof Error ? error.message : String(error)}`,
    );
    return undefined;
  }
  const readWrite = configuration.mode === "read-write";
  const indexDirectory = readWrite
    ? join(folder.path, KNOWLEDGE_INDEX_FOLDER)
    : knowledgeCacheDirectory(folder.path, root, {
        ...(configuration.knowledgeCacheDirectory === undefined
          ? {}
          : { base: configuration.knowledgeCacheDirectory }),
      });
  if (indexDirectory === undefined) {
    notes.push(
      `search_knowledge left out: read-only mode keeps its index outside the root, and every cache folder lies inside ${root}. Set XDG_CACHE_HOME to a folder outside the root, or use --mode read-write (the index then lives in ${join(folder.path, KNOWLEDGE_INDEX_FOLDER)}).`,
    );
    return undefined;
  }
  const webPages =
    readWrite && configuration.families.includes("web")
      ? folder.relative === ""
        ? WEB_PAGES_FOLDER
        : `${folder.relative}/${WEB_PAGES_FOLDER}`
      : undefined;
  return { ...folder, indexDirectory, webPages };
}

/** What a tool set of this configuration and state serves, with a note for each part left out. */
export function plan(configuration: ToolSetConfiguration, state: ToolSetState): Plan {
  const has = (family: FamilyName) => configuration.families.includes(family);
  const notes: string[] = [];
  const root = state.root;
  const fs = has("fs") && root !== undefined;
  const git = has("git") && root !== undefined && isGitRepositoryRoot(root);
  if (root === undefined && (has("fs") || has("git"))) {
    notes.push(
      "fs and git tools left out: no root (pass --root <dir>, or use a client that sends MCP roots).",
    );
  } else if (has("git") && !git && root !== undefined) {
    notes.push(
      `git tools left out: ${root} is not the top level of a git work tree (no .git directory).`,
    );
  }
  const code = has("code") && root !== undefined;
  if (has("code") && root === undefined) {
    notes.push(
      "code tools left out: no root (pass --root <dir>, or use a client that sends MCP roots); they read and rewrite the code under the root.",
    );
  }
  const office = has("office") && root !== undefined;
  if (has("office") && root === undefined) {
    notes.push(
      "office tools left out: no root (pass --root <dir>, or use a client that sends MCP roots); they read and edit the documents under the root.",
    );
  }
  const knowledge = has("knowledge");
  const knowledgeFolder = knowledge ? planKnowledgeFolder(configuration, root, notes) : undefined;
  let memoryDirectory =
    has("memory") && configuration.memoryDirectory !== undefined
      ? configuration.memoryDirectory
      : undefined;
  if (memoryDirectory !== undefined && root !== undefined && configuration.mode === "read-only") {
    const inside = relative(root, realpathOr(memoryDirectory));
    if (inside === "" || (!inside.startsWith("..") && !isAbsolute(inside))) {
      notes.push(
        `memory tools left out: read-only mode writes nothing inside the root, and --memory-dir ${memoryDirectory} lies inside ${root}. Put it outside the root, or use --mode read-write.`,
      );
      memoryDirectory = undefined;
    }
  }
  const preview = has("preview") && root !== undefined;
  if (has("preview") && root === undefined) {
    notes.push(
      "preview left out: no root (pass --root <dir>, or use a client that sends MCP roots); it opens HTML artifacts under the root.",
    );
  }
  const stateless = configuration.stateless === true;
  const browser = has("browser") && configuration.mode === "read-write" && !stateless;
  if (has("browser") && configuration.mode !== "read-write") {
    notes.push(
      "browser left out: it acts on the live web (fills forms, clicks, posts), which only read-write mode allows; use --mode read-write.",
    );
  } else if (has("browser") && stateless) {
    notes.push(
      "browser left out: a stateless server has no session to keep a browser's pages, cookies and refs in between calls.",
    );
  }
  const interact = has("interact") && !stateless;
  if (has("interact") && stateless) {
    notes.push(
      "ask_user, confirm and notify left out: a stateless server has no session to ask the user or notify them through.",
    );
  }
  if (has("knowledge") && stateless) {
    notes.push(
      "remember and search_memory left out: they keep excerpts in one server's memory, which another replica cannot see; use the memory family (--memory-dir), kept on disk.",
    );
  }
  if (has("knowledge") && !stateless && memoryDirectory !== undefined) {
    notes.push(
      "search_memory left out: remember saves into the memory folder (--memory-dir), where memory_search finds its excerpts beside memory_write's memories — one memory.",
    );
  }
  if (interact && state.elicitation === false) {
    notes.push(
      "ask_user and confirm left out: the client does not support MCP elicitation (notify stays).",
    );
  }
  return {
    core: has("core"),
    fs,
    runCommand: fs && configuration.mode === "read-write" && configuration.allowCommands.length > 0,
    git,
    code,
    office,
    design: planDesign(configuration, root, notes),
    web: has("web"),
    webSearch: has("web") && configuration.searxng !== undefined,
    interact,
    preview,
    browser,
    gui: planGui(configuration, notes),
    elicitation: state.elicitation === true,
    knowledge,
    excerpts: knowledge && !stateless,
    knowledgeFolder,
    memoryDirectory,
    notes,
  };
}

/** The planned tool names, per family, in the order the families are listed. */
export function plannedNames(
  configuration: ToolSetConfiguration,
  planned: Plan,
): Map<FamilyName, string[]> {
  const names = new Map<FamilyName, string[]>();
  if (planned.core) names.set("core", [...CORE_TOOL_NAMES]);
  if (planned.fs) {
    names.set("fs", [
      ...FS_READ_TOOL_NAMES,
      ...(configuration.mode === "read-write" ? FS_WRITE_TOOL_NAMES : []),
      ...(planned.runCommand ? [RUN_COMMAND_NAME] : []),
    ]);
  }
  if (planned.git) {
    names.set("git", [
      ...GIT_READ_NAMES,
      ...(configuration.mode === "read-write" ? GIT_WRITE_NAMES : []),
    ]);
  }
  if (planned.code) {
    names.set("code", [
      ...CODE_READ_NAMES,
      ...(configuration.mode === "read-write" ? CODE_WRITE_NAMES : []),
    ]);
  }
  if (planned.office) {
    names.set("office", [
      ...OFFICE_READ_NAMES,
      ...(configuration.mode === "read-write" ? OFFICE_WRITE_NAMES : []),
    ]);
  }
  if (planned.design !== undefined) {
    names.set("design", [
      ...(planned.design.svg ? DESIGN_OFFLINE_NAMES : []),
      ...(planned.design.figma ? DESIGN_FIGMA_READ_NAMES : []),
      ...(planned.design.export ? [DESIGN_EXPORT_NAME] : []),
    ]);
  }
  if (planned.web) {
    names.set("web", [
      ...(planned.webSearch ? [WEB_NAMES.search] : []),
      WEB_NAMES.wiki,
      WEB_NAMES.fetch,
    ]);
  }
  if (planned.knowledge) {
    names.set("knowledge", [
      ...(planned.knowledgeFolder === undefined ? [] : [KNOWLEDGE_NAMES.searchKnowledge]),
      ...(planned.excerpts ? [KNOWLEDGE_NAMES.remember] : []),
      // With a memory folder, remember saves there and memory_search finds it: one memory.
      ...(planned.excerpts && planned.memoryDirectory === undefined ? [SEARCH_MEMORY_NAME] : []),
    ]);
  }
  if (planned.memoryDirectory !== undefined) names.set("memory", [...MEMORY_NAMES]);
  if (configuration.families.includes("skills") && configuration.skillsDirectory !== undefined) {
    names.set("skills", [...SKILL_NAMES]);
  }
  if (planned.preview) names.set("preview", [PREVIEW_NAME]);
  if (planned.browser) names.set("browser", [BROWSER_NAME]);
  if (planned.gui) names.set("gui", [GUI_NAME]);
  if (planned.interact) {
    names.set("interact", [
      ...(planned.elicitation ? [INTERACT_NAMES.askUser, INTERACT_NAMES.confirm] : []),
      INTERACT_NAMES.notify,
    ]);
  }
  return names;
}
