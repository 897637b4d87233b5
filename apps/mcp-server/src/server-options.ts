import type { ComputerDisplay } from "@agentool/tools-gui";
import { z } from "zod";
import { FAMILY_NAMES, type FamilyName } from "./family-names.js";
import { MODES, type ServerMode } from "./flags.js";
import type { KnowledgeResources } from "./knowledge-resources.js";

/** How long the server waits for the client's answer to `roots/list`, unless told otherwise. */
export const DEFAULT_ROOTS_TIMEOUT_MS = 10_000;

/** Options of `createAgentoolMcpServer`. */
export interface AgentoolMcpServerOptions {
  /**
   * The directory the fs and git tools are confined to when the client sends no MCP roots (or
   * always, with `fixedRoot`). Without it and without client roots, fs and git are left out.
   */
  root?: string;
  /**
   * The families to serve. Default: all of {@link FAMILY_NAMES} but `code`, `office` and `design`
   * (opt-in: their tools cost tokens in every conversation), `browser` and `gui` (opt-in, and only
   * with `mode: "read-write"`), `memory` without `memoryDir` and `skills` without `skillsDir`.
   */
  families?: readonly FamilyName[];
  /** `"read-only"` (default) or `"read-write"` (fs and git tools that change things). */
  mode?: ServerMode;
  /** Executables `run_command` may start; needs `mode: "read-write"` and the fs family. Default none (no `run_command`). */
  allowCommands?: readonly string[];
  /** SearXNG base URL: mounts `web_search`. Default: no `web_search`. */
  searxng?: string;
  /**
   * Hosts `web_fetch` and the `browser`'s pages may reach although private or loopback
   * (`"127.0.0.1"`, `"*.corp.example"`, `"host:port"`). Default none.
   */
  allowHosts?: readonly string[];
  /**
   * The folder `search_knowledge` searches, relative to the root (or absolute inside `root`); it
   * follows the client's root like fs and git. Default: the root itself.
   */
  knowledgeDir?: string;
  /**
   * Where read-only mode keeps the knowledge index (a folder outside the root). Default
   * `$XDG_CACHE_HOME/agentool/knowledge`, else `~/.cache/agentool/knowledge`, else a folder in
   * `os.tmpdir()`.
   */
  knowledgeCacheDirectory?: string;
  /**
   * The folder of the memory family's file store (created when missing). Without it the memory
   * family is left out (and naming it in `families` is an error).
   */
  memoryDir?: string;
  /**
   * The skills folder of the skills family (`<skill>/SKILL.md` each; only read). Without it the
   * skills family is left out (and naming it in `families` is an error).
   */
  skillsDir?: string;
  /**
   * The display the gui family's `computer` tool drives (`startXvfbDisplay` or
   * `connectX11Display` of `@agentool/tools-gui/node`, or another `ComputerDisplay`). The caller
   * owns it and closes it after `dispose`. Needed by the gui family (and refused without it).
   */
  guiDisplay?: ComputerDisplay;
  /**
   * The host's Figma token (never a tool argument): with it the design family serves
   * `design_read`, `design_tokens` and, in read-write mode, `design_export`; without it only
   * `svg_read`. `agentool-mcp` reads it from `FIGMA_API_KEY` or `FIGMA_ACCESS_TOKEN`.
   */
  figmaToken?: string;
  /**
   * The Figma REST API origin (default `https://api.figma.com`): a self-hosted proxy or a test
   * server. The token is sent there only, and its host is let through the SSRF guard.
   */
  figmaApiUrl?: string;
  /** Ignore the client's MCP roots and always confine to `root`. Default `false`. */
  fixedRoot?: boolean;
  /**
   * List each tool's `outputSchema` in `tools/list` (`--output-schemas`). Default `false`: results
   * still carry `structuredContent`; the schemas (~1,000 tokens for the default families) stay out
   * of every model's context.
   */
  outputSchemas?: boolean;
  /** Where log lines go (never stdout: it carries the protocol). Default: stderr, prefixed `agentool-mcp: `. */
  log?: (line: string) => void;
  /** How long to wait for the client's `roots/list` answer, in milliseconds. Default {@link DEFAULT_ROOTS_TIMEOUT_MS}. */
  rootsTimeoutMs?: number;
  /**
   * The server answers requests of a stateless HTTP server (one fresh server per request): it
   * confines to `root` (the client's roots are never listed), answers every message at once (no
   * waiting for initialization), and leaves out what needs a session — the interact family,
   * `remember` and `search_memory`. Default `false`.
   */
  stateless?: boolean;
  /**
   * The knowledge family's corpus sources to use, shared by several servers of one process (the
   * caller closes them). Default: the server's own, closed by `dispose`.
   */
  knowledgeResources?: KnowledgeResources;
}

/** The schema `createAgentoolMcpServer` checks its options with. */
export const agentoolMcpServerOptionsSchema = z.object({
  root: z.string().min(1).optional(),
  families: z.array(z.enum(FAMILY_NAMES)).readonly().optional(),
  mode: z.enum(MODES).optional(),
  allowCommands: z.array(z.string().min(1)).readonly().optional(),
  searxng: z.url({ protocol: /^https?$/ }).optional(),
  allowHosts: z.array(z.string().min(1)).readonly().optional(),
  knowledgeDir: z.string().min(1).optional(),
  knowledgeCacheDirectory: z.string().min(1).optional(),
  memoryDir: z.string().min(1).optional(),
  skillsDir: z.string().min(1).optional(),
  guiDisplay: z
    .custom<ComputerDisplay>(
      (value) =>
        typeof value === "object" &&
        value !== null &&
        typeof (value as ComputerDisplay).capture === "function",
      "guiDisplay must be a ComputerDisplay (startXvfbDisplay or connectX11Display of @agentool/tools-gui/node)",
    )
    .optional(),
  figmaToken: z.string().min(1).optional(),
  figmaApiUrl: z.url({ protocol: /^https?$/ }).optional(),
  fixedRoot: z.boolean().optional(),
  outputSchemas: z.boolean().optional(),
  log: z.custom<(line: string) => void>((value) => typeof value === "function").optional(),
  rootsTimeoutMs: z.number().int().min(1).max(600_000).optional(),
  stateless: z.boolean().optional(),
  knowledgeResources: z
    .custom<KnowledgeResources>((value) => typeof value === "object" && value !== null)
    .optional(),
});
