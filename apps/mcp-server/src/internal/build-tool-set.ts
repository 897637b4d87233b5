import type { AnyTool } from "@agentool/contract";
import type { FileMemoryBackend } from "@agentool/tools-knowledge/node";
import type { PreviewTool } from "@agentool/tools-preview";
import type { BrowserTool } from "@agentool/tools-preview/browser";
import type { FamilyName } from "../family-names.js";
import type { KnowledgeResources } from "../knowledge-resources.js";
import type { ToolSet, ToolSetConfiguration, ToolSetState } from "../tool-sets.js";
import { buildComputerTool, buildDesignTools } from "./build-design-gui-tools.js";
import type { FamilyModules } from "./family-modules.js";
import { KNOWLEDGE_NAMES, SEARCH_MEMORY_NAME, WEB_NAMES } from "./family-tool-names.js";
import { rootRelativeSource } from "./knowledge-folder-paths.js";
import { type Plan, plan, plannedNames } from "./tool-set-plan.js";

/** Appended to `remember`'s description: where the excerpts live. */
const MEMORY_LIFETIME =
  "Excerpts are kept in this server's memory while it runs; they are gone when it restarts.";

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

/** One browser tool per configuration (its sessions are the conversations' pages), kept across rebuilds. */
const browserTools = new WeakMap<
  ToolSetConfiguration,
  { tool: BrowserTool; transport: { close(): Promise<void> } }
>();

/**
 * Closes the browser tool a configuration's tool sets made (its sessions, the shared Chromium
 * when no other tool uses it) and the guarded transport its pages' requests went through.
 *
 * @param configuration - the configuration the tool sets were built from
 * @returns when both are closed
 */
export async function disposeBrowserTool(configuration: ToolSetConfiguration): Promise<void> {
  const entry = browserTools.get(configuration);
  browserTools.delete(configuration);
  if (entry === undefined) return;
  try {
    await entry.tool.dispose();
  } finally {
    await entry.transport.close();
  }
}

/** What one family's builder reads. */
interface BuildContext {
  configuration: ToolSetConfiguration;
  state: ToolSetState;
  planned: Plan;
  /** Every planned tool name, of the loaded families and the others alike. */
  mounted: string[];
}

/** `remember` and `search_memory` over the in-memory store of the knowledge resources. */
function buildExcerptTools(
  knowledge: NonNullable<FamilyModules["knowledge"]>["index"],
  resources: KnowledgeResources,
  mounted: readonly string[],
): AnyTool[] {
  const rememberOptions = {
    store: resources.memory,
    searchToolName: SEARCH_MEMORY_NAME,
    mountedTools: mounted,
  };
  const remember = knowledge.createRememberTool(rememberOptions);
  return [
    knowledge.createRememberTool({
      ...rememberOptions,
      description: `${remember.description}\n${MEMORY_LIFETIME}`,
    }),
    knowledge.createSearchKnowledgeTool({
      source: knowledge.createStoreSource({ store: resources.memory }),
      sourceKind: "store",
      name: SEARCH_MEMORY_NAME,
      mountedTools: mounted,
    }),
  ];
}

function buildWebTools(web: NonNullable<FamilyModules["web"]>, context: BuildContext): AnyTool[] {
  const { configuration, planned, mounted, state } = context;
  const root = state.root;
  const webPages = planned.knowledgeFolder?.webPages;
  const allowHosts =
    configuration.allowHosts.length === 0 ? {} : { allowHosts: [...configuration.allowHosts] };
  const tools: AnyTool[] = web.node.createNodeWebTools({
    search:
      configuration.searxng === undefined
        ? false
        : {
            provider: web.index.createSearxngProvider({ baseUrl: configuration.searxng }),
            mountedTools: mounted,
          },
    wiki: { mountedTools: mounted },
    fetch: webPages === undefined ? { mountedTools: mounted, ...allowHosts } : false,
  });
  if (webPages !== undefined && root !== undefined) {
    // createNodeWebFetchTool's own parts, with a saver that names the page root-relative
    // (`web-pages/<page>.md`), the path read_file and search_knowledge use.
    const converters = web.node.createWorkerConverters();
    tools.push(
      web.index.createWebFetchTool({
        transport: web.node.createGuardedTransport(allowHosts),
        htmlConverter: converters.convertHtml,
        pdfExtractor: converters.extractPdf,
        save: web.saver.createWebPagesSaver(root, webPages),
        mountedTools: mounted,
        // The guarded transport holds the policy; the option makes the description name the
        // allowed hosts (and the root entry's own literal check let them through).
        ...allowHosts,
      }),
    );
  }
  return tools;
}

function buildKnowledgeTools(
  knowledge: NonNullable<FamilyModules["knowledge"]>,
  context: BuildContext,
): { tools: AnyTool[]; corpus: ToolSet["corpus"] } {
  const { configuration, planned, mounted, state } = context;
  const root = state.root;
  const tools: AnyTool[] = [];
  const resources = state.knowledge ?? knowledge.resources.createKnowledgeResources();
  const folder = planned.knowledgeFolder;
  let corpus: ToolSet["corpus"];
  if (folder !== undefined) {
    corpus = resources.corpus(
      folder.path,
      configuration.mode === "read-write" ? undefined : folder.indexDirectory,
    );
    tools.push(
      knowledge.index.createSearchKnowledgeTool({
        source: rootRelativeSource(corpus, folder.relative),
        // path_prefix is root-relative here: an absolute one inside the root is accepted.
        ...(root === undefined ? {} : { roots: [root] }),
        // Without saving, web_fetch puts nothing into the folder: the description must not say so.
        mountedTools:
          folder.webPages === undefined
            ? mounted.filter((name) => name !== WEB_NAMES.fetch)
            : mounted,
      }),
    );
  }
  if (planned.excerpts && planned.memoryDirectory === undefined) {
    tools.push(...buildExcerptTools(knowledge.index, resources, mounted));
  }
  return { tools, corpus };
}

function buildMemoryTools(
  memory: NonNullable<FamilyModules["memory"]>,
  context: BuildContext,
  directory: string,
): AnyTool[] {
  const { configuration, planned, mounted } = context;
  let backend = memoryBackends.get(configuration);
  if (backend === undefined || backend.directory !== directory) {
    backend = memory.node.createFileMemoryBackend({ directory });
    memoryBackends.set(configuration, backend);
  }
  return memory.index.createMemoryTools({
    backend,
    namespace: MCP_MEMORY_NAMESPACE,
    // remember (knowledge family) keeps its excerpts in the same folder: one memory.
    remember: planned.excerpts,
    mountedTools: mounted.filter((name) => name !== KNOWLEDGE_NAMES.remember),
  });
}

function buildPreviewTool(
  preview: NonNullable<FamilyModules["preview"]>,
  configuration: ToolSetConfiguration,
  root: string,
): AnyTool {
  let entry = previewTools.get(configuration);
  if (entry === undefined || entry.root !== root) {
    void entry?.tool.dispose();
    entry = { root, tool: preview.createChromiumPreviewTool({ root }) };
    previewTools.set(configuration, entry);
  }
  return entry.tool;
}

/**
 * The browser tool: every request of its pages through the SSRF-guarded transport of the web
 * family, opened by the same `--allow-host` hosts as `web_fetch`. Built once per configuration
 * (not per root: it touches no files), so a rebuild keeps the conversations' pages.
 */
function buildBrowserTool(
  browser: NonNullable<FamilyModules["browser"]>,
  configuration: ToolSetConfiguration,
  mounted: readonly string[],
): AnyTool {
  let entry = browserTools.get(configuration);
  if (entry === undefined) {
    const transport = browser.webNode.createGuardedTransport(
      configuration.allowHosts.length === 0 ? {} : { allowHosts: [...configuration.allowHosts] },
    );
    const tool = browser.index.createBrowserTool({
      transport,
      toMarkdown: browser.web.htmlToMarkdown,
      mountedTools: mounted,
    });
    entry = { tool, transport };
    browserTools.set(configuration, entry);
  }
  return entry.tool;
}

/**
 * {@link buildToolSet} over the family modules at hand: a family whose modules are absent is
 * planned (its names are in `families`, and every built tool's description names them) but not
 * built — the lazy server builds it once its modules are loaded.
 *
 * @param modules - the loaded family modules
 * @param configuration - families, mode, commands, SearXNG, allowed hosts
 * @param state - root, elicitation support, interaction handler
 * @returns the tools of the loaded families, every planned name per family, notes
 * @throws AgentoolError when a family refuses its options (e.g. a bad SearXNG URL)
 */
export function buildToolSetFrom(
  modules: FamilyModules,
  configuration: ToolSetConfiguration,
  state: ToolSetState,
): ToolSet {
  const planned = plan(configuration, state);
  const families = plannedNames(configuration, planned);
  const mounted = [...families.values()].flat();
  const context: BuildContext = { configuration, state, planned, mounted };
  const tools: AnyTool[] = [];
  const root = state.root;
  // One workspace for every family that reads and writes the root's files: one confinement and
  // one set of write locks, so edit_file and edit_document on the same file wait for each other.
  const workspace =
    root !== undefined &&
    modules.fs !== undefined &&
    (planned.fs || planned.code || planned.office || planned.design?.svg === true)
      ? modules.fs.workspaceFromOptions("agentool-mcp", { root })
      : undefined;
  if (planned.core && modules.core !== undefined) {
    tools.push(
      ...modules.core.createCoreTools({
        think: { mountedTools: mounted },
        updatePlan: { mountedTools: mounted },
      }),
    );
  }
  if (planned.fs && root !== undefined && modules.fs !== undefined) {
    tools.push(
      ...modules.fs.createNodeFsTools({
        root,
        ...(workspace === undefined ? {} : { workspace }),
        mode: configuration.mode,
        alsoMounted: mounted,
      }),
    );
    if (planned.runCommand) {
      tools.push(
        modules.fs.createRunCommandTool({
          root,
          allowedCommands: [...configuration.allowCommands],
          mountedTools: mounted,
        }),
      );
    }
  }
  if (planned.git && root !== undefined && modules.git !== undefined) {
    tools.push(
      ...modules.git.createGitTools({ root, mode: configuration.mode, mountedTools: mounted }),
    );
  }
  if (planned.code && root !== undefined && modules.code !== undefined) {
    // Confined to the root like fs and git; the write tools (replace_symbol, ast_rewrite) only in
    // read-write mode, through tools-fs's change set (all files or none).
    tools.push(
      ...modules.code.createCodeTools({
        root,
        ...(workspace === undefined ? {} : { workspace }),
        mode: configuration.mode,
        mountedTools: mounted,
      }),
    );
  }
  if (planned.office && root !== undefined && modules.office !== undefined) {
    // Confined to the root like fs; the write and edit tools (write_document, edit_document,
    // edit_sheet, edit_notebook) only in read-write mode, each write atomic.
    tools.push(
      ...modules.office.createOfficeTools({
        root,
        ...(workspace === undefined ? {} : { workspace }),
        mode: configuration.mode,
        mountedTools: mounted,
      }),
    );
  }
  if (planned.design !== undefined && modules.design !== undefined) {
    // svg_read and design_export confined to the root's workspace; the Figma requests through
    // one SSRF-guarded transport with the host's token, never a model's.
    const where =
      root === undefined ? undefined : { root, ...(workspace === undefined ? {} : { workspace }) };
    tools.push(...buildDesignTools(modules.design, configuration, planned.design, where, mounted));
  }
  if (planned.web && modules.web !== undefined) tools.push(...buildWebTools(modules.web, context));
  let corpus: ToolSet["corpus"];
  if (planned.knowledge && modules.knowledge !== undefined) {
    const built = buildKnowledgeTools(modules.knowledge, context);
    tools.push(...built.tools);
    corpus = built.corpus;
  }
  if (planned.memoryDirectory !== undefined && modules.memory !== undefined) {
    tools.push(...buildMemoryTools(modules.memory, context, planned.memoryDirectory));
  }
  const skillsDirectory = configuration.skillsDirectory;
  if (
    configuration.families.includes("skills") &&
    skillsDirectory !== undefined &&
    modules.skills
  ) {
    tools.push(...modules.skills.tools.buildSkillTools(configuration, skillsDirectory, mounted));
  }
  if (planned.interact && modules.interact !== undefined) {
    const handler = state.handler;
    if (planned.elicitation) {
      tools.push(
        modules.interact.createAskUserTool({ handler, mountedTools: mounted }),
        modules.interact.createConfirmTool({ handler }),
      );
    }
    tools.push(modules.interact.createNotifyTool({ handler, mountedTools: mounted }));
  }
  if (planned.preview && root !== undefined && modules.preview !== undefined) {
    tools.push(buildPreviewTool(modules.preview, configuration, root));
  }
  if (planned.browser && modules.browser !== undefined) {
    tools.push(buildBrowserTool(modules.browser, configuration, mounted));
  }
  if (planned.gui && modules.gui !== undefined) {
    tools.push(...buildComputerTool(modules.gui, configuration, mounted));
  }
  checkBuilt(tools, families, modules);
  return {
    tools,
    families,
    notes: planned.notes,
    ...(planned.knowledgeFolder === undefined ? {} : { knowledgeFolder: planned.knowledgeFolder }),
    ...(corpus === undefined ? {} : { corpus }),
  };
}

/** Throws when the loaded families mounted other names than planned (descriptions could name absent tools). */
function checkBuilt(
  tools: readonly AnyTool[],
  families: ReadonlyMap<FamilyName, string[]>,
  modules: FamilyModules,
): void {
  const built = tools.map((tool) => tool.name).sort();
  const expected = [...families]
    .filter(([family]) => modules[family] !== undefined)
    .flatMap(([, names]) => names)
    .sort();
  if (built.join(",") !== expected.join(",")) {
    throw new Error(
      `agentool-mcp: the families mounted ${built.join(", ")} but ${expected.join(", ")} was planned.`,
    );
  }
}
