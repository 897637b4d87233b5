import { lstatSync, realpathSync } from "node:fs";
import { isAbsolute, join, relative } from "node:path";
import type { AnyTool } from "@agentool/contract";
import { createCoreTools, THINK_TOOL_NAME, UPDATE_PLAN_TOOL_NAME } from "@agentool/tools-core";
import { fsToolNames } from "@agentool/tools-fs";
import {
  createNodeFsTools,
  createRunCommandTool,
  RUN_COMMAND_TOOL_NAME,
} from "@agentool/tools-fs/node";
import { createGitTools, GIT_READ_TOOL_NAMES, GIT_WRITE_TOOL_NAMES } from "@agentool/tools-git";
import {
  ASK_USER_TOOL_NAME,
  CONFIRM_TOOL_NAME,
  createAskUserTool,
  createConfirmTool,
  createNotifyTool,
  type InteractionHandler,
  NOTIFY_TOOL_NAME,
} from "@agentool/tools-interact";
import {
  createMemoryTools,
  createRememberTool,
  createSearchKnowledgeTool,
  createStoreSource,
  MEMORY_TOOL_NAME_LIST,
  REMEMBER_TOOL_NAME,
  SEARCH_KNOWLEDGE_TOOL_NAME,
  SKILL_TOOL_NAMES,
} from "@agentool/tools-knowledge";
import {
  CORPUS_INDEX_FOLDER,
  type CorpusSource,
  createFileMemoryBackend,
  type FileMemoryBackend,
} from "@agentool/tools-knowledge/node";
import { PREVIEW_TOOL_NAME, type PreviewTool } from "@agentool/tools-preview";
import { createChromiumPreviewTool } from "@agentool/tools-preview/node";
import {
  createSearxngProvider,
  createWebFetchTool,
  WEB_FETCH_TOOL_NAME,
  WEB_SEARCH_TOOL_NAME,
  WIKI_SEARCH_TOOL_NAME,
} from "@agentool/tools-web";
import {
  createGuardedTransport,
  createNodeWebTools,
  createWorkerConverters,
} from "@agentool/tools-web/node";
import type { ServerMode } from "./command-line.js";
import type { FamilyName } from "./family-names.js";
import {
  createWebPagesSaver,
  type KnowledgeFolder,
  knowledgeCacheDirectory,
  resolveKnowledgeFolder,
  rootRelativeSource,
  WEB_PAGES_FOLDER,
} from "./knowledge-folder.js";
import { createKnowledgeResources, type KnowledgeResources } from "./knowledge-resources.js";
import { buildSkillTools } from "./skill-tools.js";

/** The name of the second `search_knowledge`, over what `remember` saved. */
export const SEARCH_MEMORY_TOOL_NAME = "search_memory";

/** Appended to `remember`'s description: where the excerpts live. */
const MEMORY_LIFETIME =
  "Excerpts are kept in this server's memory while it runs; they are gone when it restarts.";

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
  /** Hosts `web_fetch` may reach although private or loopback. */
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
  /** List `outputSchema` for tools that declare output. Default `false`. */
  outputSchemas?: boolean;
  /**
   * Each request is served by a fresh server (stateless HTTP): the tools that need a session —
   * `remember` / `search_memory` (in this process's memory) and the interact family (requests
   * and notifications to the client) — are left out with a note. Default `false`.
   */
  stateless?: boolean;
}

/** The memory namespace of the MCP server: one per memory folder. */
export const MCP_MEMORY_NAMESPACE: readonly string[] = Object.freeze(["mcp"]);

/** One file store per configuration, kept across rebuilds (its caches survive a roots change). */
const memoryBackends = new WeakMap<ToolSetConfiguration, FileMemoryBackend>();

/** One preview tool per configuration and root (it holds a shared Chromium), kept across rebuilds. */
const previewTools = new WeakMap<ToolSetConfiguration, { root: string; tool: PreviewTool }>();

/**
 * Closes the preview tool a configuration's tool sets made (its sessions, and the shared
 * Chromium when no other tool uses it).
 *
 * @param configuration - the configuration the tool sets were built from
 * @returns when it is closed
 */
export async function disposePreviewTool(configuration: ToolSetConfiguration): Promise<void> {
  const entry = previewTools.get(configuration);
  previewTools.delete(configuration);
  await entry?.tool.dispose();
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

interface Plan {
  core: boolean;
  fs: boolean;
  runCommand: boolean;
  git: boolean;
  web: boolean;
  webSearch: boolean;
  interact: boolean;
  preview: boolean;
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
    ? join(folder.path, CORPUS_INDEX_FOLDER)
    : knowledgeCacheDirectory(folder.path, root, {
        ...(configuration.knowledgeCacheDirectory === undefined
          ? {}
          : { base: configuration.knowledgeCacheDirectory }),
      });
  if (indexDirectory === undefined) {
    notes.push(
      `search_knowledge left out: read-only mode keeps its index outside the root, and every cache folder lies inside ${root}. Set XDG_CACHE_HOME to a folder outside the root, or use --mode read-write (the index then lives in ${join(folder.path, CORPUS_INDEX_FOLDER)}).`,
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

function plan(configuration: ToolSetConfiguration, state: ToolSetState): Plan {
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
    web: has("web"),
    webSearch: has("web") && configuration.searxng !== undefined,
    interact,
    preview,
    elicitation: state.elicitation === true,
    knowledge,
    excerpts: knowledge && !stateless,
    knowledgeFolder,
    memoryDirectory,
    notes,
  };
}

function plannedNames(
  configuration: ToolSetConfiguration,
  planned: Plan,
): Map<FamilyName, string[]> {
  const names = new Map<FamilyName, string[]>();
  if (planned.core) names.set("core", [THINK_TOOL_NAME, UPDATE_PLAN_TOOL_NAME]);
  if (planned.fs) {
    names.set("fs", [
      ...fsToolNames({ mode: configuration.mode }),
      ...(planned.runCommand ? [RUN_COMMAND_TOOL_NAME] : []),
    ]);
  }
  if (planned.git) {
    names.set("git", [
      ...GIT_READ_TOOL_NAMES,
      ...(configuration.mode === "read-write" ? GIT_WRITE_TOOL_NAMES : []),
    ]);
  }
  if (planned.web) {
    names.set("web", [
      ...(planned.webSearch ? [WEB_SEARCH_TOOL_NAME] : []),
      WIKI_SEARCH_TOOL_NAME,
      WEB_FETCH_TOOL_NAME,
    ]);
  }
  if (planned.knowledge) {
    names.set("knowledge", [
      ...(planned.knowledgeFolder === undefined ? [] : [SEARCH_KNOWLEDGE_TOOL_NAME]),
      ...(planned.excerpts ? [REMEMBER_TOOL_NAME] : []),
      // With a memory folder, remember saves there and memory_search finds it: one memory.
      ...(planned.excerpts && planned.memoryDirectory === undefined
        ? [SEARCH_MEMORY_TOOL_NAME]
        : []),
    ]);
  }
  if (planned.memoryDirectory !== undefined) names.set("memory", [...MEMORY_TOOL_NAME_LIST]);
  if (configuration.families.includes("skills") && configuration.skillsDirectory !== undefined) {
    names.set("skills", [...SKILL_TOOL_NAMES]);
  }
  if (planned.preview) names.set("preview", [PREVIEW_TOOL_NAME]);
  if (planned.interact) {
    names.set("interact", [
      ...(planned.elicitation ? [ASK_USER_TOOL_NAME, CONFIRM_TOOL_NAME] : []),
      NOTIFY_TOOL_NAME,
    ]);
  }
  return names;
}

/** `remember` and `search_memory` over the in-memory store of the knowledge resources. */
function buildExcerptTools(resources: KnowledgeResources, mounted: readonly string[]): AnyTool[] {
  const rememberOptions = {
    store: resources.memory,
    searchToolName: SEARCH_MEMORY_TOOL_NAME,
    mountedTools: mounted,
  };
  const remember = createRememberTool(rememberOptions);
  return [
    createRememberTool({
      ...rememberOptions,
      description: `${remember.description}\n${MEMORY_LIFETIME}`,
    }),
    createSearchKnowledgeTool({
      source: createStoreSource({ store: resources.memory }),
      sourceKind: "store",
      name: SEARCH_MEMORY_TOOL_NAME,
      mountedTools: mounted,
    }),
  ];
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
 * - web: `wiki_search` and the SSRF-guarded `web_fetch` (`allowHosts`); `web_search` over
 *   SearXNG when `searxng` is set.
 * - interact: `notify` always; `ask_user` and `confirm` only when the client supports elicitation.
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
  const planned = plan(configuration, state);
  const families = plannedNames(configuration, planned);
  const mounted = [...families.values()].flat();
  const tools: AnyTool[] = [];
  const root = state.root;
  if (planned.core) {
    tools.push(
      ...createCoreTools({
        think: { mountedTools: mounted },
        updatePlan: { mountedTools: mounted },
      }),
    );
  }
  if (planned.fs && root !== undefined) {
    tools.push(...createNodeFsTools({ root, mode: configuration.mode, alsoMounted: mounted }));
    if (planned.runCommand) {
      tools.push(
        createRunCommandTool({
          root,
          allowedCommands: [...configuration.allowCommands],
          mountedTools: mounted,
        }),
      );
    }
  }
  if (planned.git && root !== undefined) {
    tools.push(...createGitTools({ root, mode: configuration.mode, mountedTools: mounted }));
  }
  const webPages = planned.knowledgeFolder?.webPages;
  if (planned.web) {
    const allowHosts =
      configuration.allowHosts.length === 0 ? {} : { allowHosts: [...configuration.allowHosts] };
    tools.push(
      ...createNodeWebTools({
        search:
          configuration.searxng === undefined
            ? false
            : {
                provider: createSearxngProvider({ baseUrl: configuration.searxng }),
                mountedTools: mounted,
              },
        wiki: { mountedTools: mounted },
        fetch: webPages === undefined ? { mountedTools: mounted, ...allowHosts } : false,
      }),
    );
    if (webPages !== undefined && root !== undefined) {
      // createNodeWebFetchTool's own parts, with a saver that names the page root-relative
      // (`web-pages/<page>.md`), the path read_file and search_knowledge use.
      const converters = createWorkerConverters();
      tools.push(
        createWebFetchTool({
          transport: createGuardedTransport(allowHosts),
          htmlConverter: converters.convertHtml,
          pdfExtractor: converters.extractPdf,
          save: createWebPagesSaver(root, webPages),
          mountedTools: mounted,
          // The guarded transport holds the policy; the option makes the description name the
          // allowed hosts (and the root entry's own literal check let them through).
          ...allowHosts,
        }),
      );
    }
  }
  let corpus: CorpusSource | undefined;
  if (planned.knowledge) {
    const resources = state.knowledge ?? createKnowledgeResources();
    const folder = planned.knowledgeFolder;
    if (folder !== undefined) {
      corpus = resources.corpus(
        folder.path,
        configuration.mode === "read-write" ? undefined : folder.indexDirectory,
      );
      tools.push(
        createSearchKnowledgeTool({
          source: rootRelativeSource(corpus, folder.relative),
          // path_prefix is root-relative here: an absolute one inside the root is accepted.
          ...(root === undefined ? {} : { roots: [root] }),
          // Without saving, web_fetch puts nothing into the folder: the description must not say so.
          mountedTools:
            webPages === undefined
              ? mounted.filter((name) => name !== WEB_FETCH_TOOL_NAME)
              : mounted,
        }),
      );
    }
    if (planned.excerpts && planned.memoryDirectory === undefined) {
      tools.push(...buildExcerptTools(resources, mounted));
    }
  }
  if (planned.memoryDirectory !== undefined) {
    let backend = memoryBackends.get(configuration);
    if (backend === undefined || backend.directory !== planned.memoryDirectory) {
      backend = createFileMemoryBackend({ directory: planned.memoryDirectory });
      memoryBackends.set(configuration, backend);
    }
    tools.push(
      ...createMemoryTools({
        backend,
        namespace: MCP_MEMORY_NAMESPACE,
        // remember (knowledge family) keeps its excerpts in the same folder: one memory.
        remember: planned.excerpts,
        mountedTools: mounted.filter((name) => name !== REMEMBER_TOOL_NAME),
      }),
    );
  }
  if (configuration.families.includes("skills") && configuration.skillsDirectory !== undefined) {
    tools.push(...buildSkillTools(configuration, configuration.skillsDirectory, mounted));
  }
  if (planned.interact) {
    if (planned.elicitation) {
      tools.push(
        createAskUserTool({ handler: state.handler, mountedTools: mounted }),
        createConfirmTool({ handler: state.handler }),
      );
    }
    tools.push(createNotifyTool({ handler: state.handler, mountedTools: mounted }));
  }
  if (planned.preview && root !== undefined) {
    let entry = previewTools.get(configuration);
    if (entry === undefined || entry.root !== root) {
      void entry?.tool.dispose();
      entry = { root, tool: createChromiumPreviewTool({ root }) };
      previewTools.set(configuration, entry);
    }
    tools.push(entry.tool);
  }
  const built = tools.map((tool) => tool.name).sort();
  const expected = [...mounted].sort();
  if (built.join(",") !== expected.join(",")) {
    // A family mounted other names than planned: descriptions could name absent tools.
    throw new Error(
      `agentool-mcp: the families mounted ${built.join(", ")} but ${expected.join(", ")} was planned.`,
    );
  }
  return {
    tools,
    families,
    notes: planned.notes,
    ...(planned.knowledgeFolder === undefined ? {} : { knowledgeFolder: planned.knowledgeFolder }),
    ...(corpus === undefined ? {} : { corpus }),
  };
}
