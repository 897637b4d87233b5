import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCodeTools } from "@agentool/tools-code";
import { createCoreTools } from "@agentool/tools-core";
import { createDesignTools } from "@agentool/tools-design";
import { createNodeFsTools, createRunCommandTool } from "@agentool/tools-fs/node";
import { createGitTools } from "@agentool/tools-git";
import { createComputerTool } from "@agentool/tools-gui";
import { sizedTestDisplay } from "@agentool/tools-gui/testing";
import { createInteractTools } from "@agentool/tools-interact";
import {
  createInMemoryMemoryBackend,
  createInMemoryVectorStore,
  createMemoryTools,
  createRememberTool,
  createSearchKnowledgeTool,
  createSkillTools,
  createStoreSource,
} from "@agentool/tools-knowledge";
import { createCorpusSource, SkillRegistry } from "@agentool/tools-knowledge/node";
import { createOfficeTools } from "@agentool/tools-office";
import { createPreviewTool } from "@agentool/tools-preview";
import { createBrowserTool } from "@agentool/tools-preview/browser";
import { createSearxngProvider, createWebTools } from "@agentool/tools-web";

/** The tools a family's factories create, by factory. */
export interface FamilyTools {
  /** The package, e.g. `@agentool/tools-fs`. */
  packageName: string;
  /** Each factory's tool names (a README table may list one factory's tools). */
  groups: string[][];
  /** Every name the family creates. */
  all: string[];
}

const names = (tools: ReadonlyArray<{ name: string }>): string[] => tools.map((tool) => tool.name);

/**
 * Creates every family's tools the way a host does — every factory, read-write, every optional
 * tool switched on, over a fresh temporary root — and reads their names.
 *
 * @returns one entry per family package
 */
export function createFamilyTools(): FamilyTools[] {
  const root = mkdtempSync(join(tmpdir(), "agentool-family-tools-"));
  execFileSync("git", ["init", "--quiet", root]);
  const store = createInMemoryVectorStore();
  const families: Array<Omit<FamilyTools, "all">> = [
    { packageName: "@agentool/tools-core", groups: [names(createCoreTools())] },
    {
      packageName: "@agentool/tools-fs",
      groups: [
        [
          ...names(createNodeFsTools({ root, mode: "read-write" })),
          createRunCommandTool({ root, allowedCommands: ["node"] }).name,
        ],
      ],
    },
    {
      packageName: "@agentool/tools-git",
      groups: [names(createGitTools({ root, mode: "read-write" }))],
    },
    {
      packageName: "@agentool/tools-code",
      groups: [names(createCodeTools({ root, mode: "read-write" }))],
    },
    {
      packageName: "@agentool/tools-office",
      groups: [names(createOfficeTools({ root, mode: "read-write" }))],
    },
    {
      packageName: "@agentool/tools-design",
      // With a token every tool is mounted; the transport is made but never used.
      groups: [names(createDesignTools({ root, figmaToken: "figd_unused" }))],
    },
    {
      packageName: "@agentool/tools-gui",
      groups: [
        [createComputerTool({ display: sizedTestDisplay({ width: 1280, height: 800 }) }).name],
      ],
    },
    {
      packageName: "@agentool/tools-web",
      groups: [
        names(
          createWebTools({
            search: { provider: createSearxngProvider({ baseUrl: "http://localhost:8080" }) },
          }),
        ),
      ],
    },
    {
      packageName: "@agentool/tools-interact",
      groups: [
        names(createInteractTools({ handler: { ask: () => null, notify: () => undefined } })),
      ],
    },
    {
      packageName: "@agentool/tools-knowledge",
      groups: [
        [
          createSearchKnowledgeTool({ source: createCorpusSource({ root }) }).name,
          createRememberTool({ store }).name,
          // the store's search tool under the name the README and the MCP server give it
          createSearchKnowledgeTool({
            source: createStoreSource({ store }),
            sourceKind: "store",
            name: "search_memory",
          }).name,
        ],
        names(createMemoryTools({ backend: createInMemoryMemoryBackend(), namespace: ["readme"] })),
        names(createSkillTools({ registry: new SkillRegistry(root) })),
      ],
    },
    {
      packageName: "@agentool/tools-preview",
      groups: [
        [createPreviewTool({ read: () => "" }).name],
        // The browser starts no Chromium until its first navigation.
        [createBrowserTool({ transport: async () => Promise.reject(new Error("unused")) }).name],
      ],
    },
  ];
  return families.map((family) => ({ ...family, all: family.groups.flat() }));
}
