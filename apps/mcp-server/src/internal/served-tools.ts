import { type RegisteredTools, registerTools } from "@agentool/adapters/mcp";
import { AgentoolError, type AnyTool } from "@agentool/contract";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { FamilyName } from "../family-names.js";
import type { KnowledgeResources } from "../knowledge-resources.js";
import type { ToolSetConfiguration, ToolSetState } from "../tool-sets.js";
import { disposeDesignTransport } from "./build-design-gui-tools.js";
import { buildToolSetFrom, disposeBrowserTool, disposePreviewTool } from "./build-tool-set.js";
import type { FamilyModules } from "./family-modules.js";
import { withDeadline } from "./with-deadline.js";

/** How long `dispose` waits for running tool calls to stop after aborting them. */
const DISPOSE_GRACE_MS = 10_000;

/** What {@link ServedTools} is built from. */
export interface ServedToolsOptions {
  /** What every tool set is built from. */
  configuration: ToolSetConfiguration;
  /** The first state (root, elicitation, handler, knowledge). */
  state: ToolSetState;
  /** The knowledge family's resources, when it is served. */
  knowledge: KnowledgeResources | undefined;
  /** Whether `knowledge` belongs to the caller (then it is neither released nor closed here). */
  sharedKnowledge: boolean;
  /** Where log lines go. */
  log: (line: string) => void;
  /** The family modules at hand (the eager server: every family's). */
  modules: FamilyModules;
  /**
   * Loads more family modules: the lazy server builds a family's tools when one of them is first
   * listed or called (see {@link ServedTools.missingFamiliesFor}). Absent = `modules` is complete.
   */
  load?: (families: readonly FamilyName[]) => Promise<FamilyModules>;
}

const noop = (): void => {};

/** The knowledge and memory families build `remember` together (with a memory folder): loaded together. */
const LOADED_TOGETHER: readonly (readonly FamilyName[])[] = [["knowledge", "memory"]];

/**
 * The tools one server serves right now: built from its state, registered once, swapped when the
 * root or the served names change (tools/list_changed is sent), and stopped on dispose — every
 * call runs under the server's disposal signal and is waited for by {@link ServedTools.dispose}.
 */
export class ServedTools {
  #state: ToolSetState;
  #names: string[] = [];
  #shownNotes = new Set<string>();
  #shownKnowledgeFolder = "";
  #registration: RegisteredTools | undefined;
  #server: McpServer | undefined;
  #modules: FamilyModules;
  #knowledge: KnowledgeResources | undefined;
  /** The planned families and their tool names (loaded or not). */
  #families = new Map<FamilyName, string[]>();
  /** Families whose modules did not load (not tried again). */
  readonly #failed = new Set<FamilyName>();
  readonly #disposal = new AbortController();
  readonly #running = new Set<Promise<unknown>>();
  readonly #options: ServedToolsOptions;

  /** @param options - configuration, first state, knowledge resources and logger */
  constructor(options: ServedToolsOptions) {
    this.#options = options;
    this.#state = options.state;
    this.#modules = options.modules;
    this.#knowledge = options.knowledge;
  }

  /** The state the tools were last built from. */
  get state(): ToolSetState {
    return this.#state;
  }

  /** The names of the tools served now. */
  get names(): readonly string[] {
    return this.#names;
  }

  /**
   * Registers the tools of the first state on the server.
   *
   * @param server - the MCP server
   */
  register(server: McpServer): void {
    this.#server = server;
    // --mode read-write is the operator's decision to run destructive tools; read-only refuses any.
    this.#registration = registerTools(server, this.#build(this.#state), {
      allowDestructive: this.#options.configuration.mode === "read-write",
      outputSchemas: this.#options.configuration.outputSchemas === true,
    });
  }

  /**
   * Swaps the tools when the root or the elicitation support changes; the registration is
   * replaced (and tools/list_changed sent) when the root or the served names differ.
   *
   * @param next - the new state
   */
  apply(next: ToolSetState): void {
    const state = this.#state;
    if (next.root === state.root && next.elicitation === state.elicitation) return;
    const previousNames = this.#names.join(",");
    const rootChanged = next.root !== state.root;
    this.#state = next;
    const tools = this.#build(next);
    if (rootChanged || this.#names.join(",") !== previousNames) {
      this.#registration?.replace(tools);
    }
  }

  /**
   * Aborts the running calls (their child processes are killed), closes the server, then waits
   * (each step at most ten seconds) for the calls, the knowledge index's last save, the preview
   * and browser tools' Chromium and the design tools' transport. (The gui family's display is
   * the host's: `agentool-mcp` closes it after this.)
   *
   * @param server - the MCP server to close
   */
  async dispose(server: McpServer): Promise<void> {
    this.#disposal.abort(new AgentoolError("agentool-mcp is shutting down."));
    const { sharedKnowledge, configuration } = this.#options;
    const knowledge = this.#knowledge;
    try {
      await server.close();
    } finally {
      // Stops indexing and waits for the index's last save.
      const closing = sharedKnowledge ? undefined : knowledge?.close();
      await withDeadline(Promise.allSettled([...this.#running]), DISPOSE_GRACE_MS);
      if (closing !== undefined) await withDeadline(closing, DISPOSE_GRACE_MS);
      await withDeadline(
        Promise.all([
          disposePreviewTool(configuration),
          disposeBrowserTool(configuration),
          disposeDesignTransport(configuration),
        ]),
        DISPOSE_GRACE_MS,
      );
    }
  }

  /**
   * The families whose modules a client message needs and that are not loaded yet: every planned
   * family for `tools/list`, the called tool's for `tools/call`, none otherwise (and none when
   * the server loads nothing lazily).
   *
   * @param message - a client message
   * @returns the families to load before the message is handled
   */
  missingFamiliesFor(message: JSONRPCMessage): FamilyName[] {
    if (this.#options.load === undefined || !("method" in message)) return [];
    let needed: FamilyName[];
    if (message.method === "tools/list") {
      needed = [...this.#families.keys()];
    } else if (message.method === "tools/call") {
      const name = (message.params as { name?: unknown } | undefined)?.name;
      needed = [...this.#families]
        .filter(([, names]) => names.includes(name as string))
        .map(([family]) => family);
    } else {
      return [];
    }
    for (const group of LOADED_TOGETHER) {
      if (needed.some((family) => group.includes(family))) {
        needed.push(...group.filter((family) => this.#families.has(family)));
      }
    }
    return [...new Set(needed)].filter(
      (family) => this.#modules[family] === undefined && !this.#failed.has(family),
    );
  }

  /**
   * Loads the modules of some families and serves their tools (the registration is replaced
   * without `notifications/tools/list_changed`: the served names do not change, and a client
   * that listed the tools saw them all, since `tools/list` waits for every family).
   *
   * @param families - families from {@link missingFamiliesFor}
   * @returns when their tools are served (a family that fails to load is logged and left out)
   */
  async load(families: readonly FamilyName[]): Promise<void> {
    const load = this.#options.load;
    if (load === undefined || families.length === 0) return;
    let loaded: FamilyModules;
    try {
      loaded = await load(families);
    } catch (error) {
      for (const family of families) this.#failed.add(family);
      this.#options.log(
        `could not load the ${families.join(", ")} famil${families.length === 1 ? "y" : "ies"}: ${error instanceof Error ? error.message : String(error)}`,
      );
      return;
    }
    this.#modules = { ...this.#modules, ...loaded };
    if (loaded.knowledge !== undefined && this.#knowledge === undefined) {
      const log = this.#options.log;
      this.#knowledge = loaded.knowledge.resources.createKnowledgeResources({
        onWarn: (message) => log(`knowledge: ${message}`),
      });
      this.#state = { ...this.#state, knowledge: this.#knowledge };
    }
    const tools = this.#build(this.#state);
    const low = this.#server?.server as { sendToolListChanged?: () => Promise<void> } | undefined;
    if (low === undefined) return;
    low.sendToolListChanged = async () => {};
    try {
      this.#registration?.replace(tools);
    } finally {
      delete low.sendToolListChanged;
    }
  }

  /** The tools of a state (each note logged once while it holds). */
  #build(next: ToolSetState): AnyTool[] {
    const { configuration, sharedKnowledge, log } = this.#options;
    const knowledge = this.#knowledge;
    const set = buildToolSetFrom(this.#modules, configuration, next);
    this.#families = set.families;
    for (const note of set.notes) if (!this.#shownNotes.has(note)) log(note);
    this.#shownNotes = new Set(set.notes);
    const folder = set.knowledgeFolder;
    const shown =
      folder === undefined
        ? ""
        : `search_knowledge searches ${folder.path} (index in ${folder.indexDirectory}${folder.webPages === undefined ? "" : `; web_fetch saves pages into ${folder.webPages}`}).`;
    if (shown !== "" && shown !== this.#shownKnowledgeFolder) log(shown);
    this.#shownKnowledgeFolder = shown;
    // A roots change leaves the old folder's source behind: stop its indexing.
    if (knowledge !== undefined && !sharedKnowledge) void knowledge.release(set.corpus);
    // Every planned family built: the tools' own order (that of tools/list); else the planned names.
    const complete = [...set.families.keys()].every(
      (family) => this.#modules[family] !== undefined,
    );
    this.#names = complete ? set.tools.map((tool) => tool.name) : [...set.families.values()].flat();
    return set.tools.map((tool) => this.#tracked(tool));
  }

  /** The tool with a `run` that also stops on dispose and is waited for by it. */
  #tracked(tool: AnyTool): AnyTool {
    const run: AnyTool["run"] = (input, runOptions) => {
      const { signal, release } = this.#callSignal(runOptions?.signal);
      const call = tool.run(input, { ...runOptions, signal });
      this.#running.add(call);
      void call.finally(() => {
        this.#running.delete(call);
        release();
      });
      return call;
    };
    return Object.freeze({ ...tool, run });
  }

  /**
   * A call's signal: aborted on dispose or when the request's signal aborts (with that reason),
   * as `AbortSignal.any` would give, without its per-call cost (a composite signal kept alive by
   * the long-lived disposal signal); `release` drops the listeners once the call ends.
   */
  #callSignal(request: AbortSignal | undefined): { signal: AbortSignal; release: () => void } {
    const disposal = this.#disposal.signal;
    if (request === undefined || disposal.aborted) return { signal: disposal, release: noop };
    if (request.aborted) return { signal: request, release: noop };
    const controller = new AbortController();
    const onDisposal = () => controller.abort(disposal.reason);
    const onRequest = () => controller.abort(request.reason);
    disposal.addEventListener("abort", onDisposal, { once: true });
    request.addEventListener("abort", onRequest, { once: true });
    return {
      signal: controller.signal,
      release: () => {
        disposal.removeEventListener("abort", onDisposal);
        request.removeEventListener("abort", onRequest);
      },
    };
  }
}
