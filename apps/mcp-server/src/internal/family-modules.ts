import type { FamilyName } from "../family-names.js";

/**
 * The modules a family's tools are built from. The eager server holds every one (imported
 * statically, see `eager-family-modules.ts`); the lazy server (`agentool-mcp` over stdio) holds
 * those it has loaded with {@link loadFamilyModules}.
 */
export interface FamilyModules {
  core?: typeof import("@agentool/tools-core");
  fs?: typeof import("@agentool/tools-fs/node");
  git?: typeof import("@agentool/tools-git");
  code?: typeof import("@agentool/tools-code");
  office?: typeof import("@agentool/tools-office");
  design?: {
    index: typeof import("@agentool/tools-design");
    /** `createGuardedTransport`: the Figma requests' transport, closed with the server. */
    webNode: typeof import("@agentool/tools-web/node");
  };
  web?: {
    index: typeof import("@agentool/tools-web");
    node: typeof import("@agentool/tools-web/node");
    saver: typeof import("../knowledge-folder.js");
  };
  knowledge?: {
    index: typeof import("@agentool/tools-knowledge");
    resources: typeof import("../knowledge-resources.js");
  };
  memory?: {
    index: typeof import("@agentool/tools-knowledge");
    node: typeof import("@agentool/tools-knowledge/node");
  };
  skills?: {
    tools: typeof import("../skill-tools.js");
    prompts: typeof import("../prompts.js");
  };
  interact?: typeof import("@agentool/tools-interact");
  preview?: typeof import("@agentool/tools-preview/node");
  browser?: {
    index: typeof import("@agentool/tools-preview/browser");
    /** `htmlToMarkdown`, for `snapshot { markdown: true }`. */
    web: typeof import("@agentool/tools-web");
    /** `createGuardedTransport`, every request of the browser's pages. */
    webNode: typeof import("@agentool/tools-web/node");
  };
  gui?: typeof import("@agentool/tools-gui");
}

const loaders: { [Family in FamilyName]: () => Promise<FamilyModules> } = {
  core: async () => ({ core: await import("@agentool/tools-core") }),
  fs: async () => ({ fs: await import("@agentool/tools-fs/node") }),
  git: async () => ({ git: await import("@agentool/tools-git") }),
  // code and office take tools-fs's workspace (shared with fs when it is served too)
  code: async () => {
    const [code, fs] = await Promise.all([
      import("@agentool/tools-code"),
      import("@agentool/tools-fs/node"),
    ]);
    return { code, fs };
  },
  office: async () => {
    const [office, fs] = await Promise.all([
      import("@agentool/tools-office"),
      import("@agentool/tools-fs/node"),
    ]);
    return { office, fs };
  },
  // svg_read and design_export take the same workspace too
  design: async () => {
    const [index, webNode, fs] = await Promise.all([
      import("@agentool/tools-design"),
      import("@agentool/tools-web/node"),
      import("@agentool/tools-fs/node"),
    ]);
    return { design: { index, webNode }, fs };
  },
  web: async () => {
    const [index, node, saver] = await Promise.all([
      import("@agentool/tools-web"),
      import("@agentool/tools-web/node"),
      import("../knowledge-folder.js"),
    ]);
    return { web: { index, node, saver } };
  },
  knowledge: async () => {
    const [index, resources] = await Promise.all([
      import("@agentool/tools-knowledge"),
      import("../knowledge-resources.js"),
    ]);
    return { knowledge: { index, resources } };
  },
  memory: async () => {
    const [index, node] = await Promise.all([
      import("@agentool/tools-knowledge"),
      import("@agentool/tools-knowledge/node"),
    ]);
    return { memory: { index, node } };
  },
  skills: async () => {
    const [tools, prompts] = await Promise.all([
      import("../skill-tools.js"),
      import("../prompts.js"),
    ]);
    return { skills: { tools, prompts } };
  },
  interact: async () => ({ interact: await import("@agentool/tools-interact") }),
  preview: async () => ({ preview: await import("@agentool/tools-preview/node") }),
  browser: async () => {
    const [index, web, webNode] = await Promise.all([
      import("@agentool/tools-preview/browser"),
      import("@agentool/tools-web"),
      import("@agentool/tools-web/node"),
    ]);
    return { browser: { index, web, webNode } };
  },
  // The display itself is the host's (createAgentoolMcpServer's guiDisplay; agentool-mcp starts
  // or connects it before serving): only the tool is loaded here.
  gui: async () => ({ gui: await import("@agentool/tools-gui") }),
};

/**
 * Imports the modules of some families (each module once; Node caches them).
 *
 * @param families - the families to load
 * @returns their modules, merged
 * @example
 * const modules = await loadFamilyModules(["fs"]); // modules.fs.createNodeFsTools
 */
export async function loadFamilyModules(families: readonly FamilyName[]): Promise<FamilyModules> {
  const loaded = await Promise.all(families.map((family) => loaders[family]()));
  return Object.assign({}, ...loaded) as FamilyModules;
}
