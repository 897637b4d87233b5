import { type RegisteredTools, registerTools } from "@agentool/adapters/mcp";
import { AgentoolError, type AnyTool } from "@agentool/contract";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { KnowledgeResources } from "../knowledge-resources.js";
import {
  buildToolSet,
  disposePreviewTool,
  type ToolSetConfiguration,
  type ToolSetState,
} from "../tool-sets.js";
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
}

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
  readonly #disposal = new AbortController();
  readonly #running = new Set<Promise<unknown>>();
  readonly #options: ServedToolsOptions;

  /** @param options - configuration, first state, knowledge resources and logger */
  constructor(options: ServedToolsOptions) {
    this.#options = options;
    this.#state = options.state;
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
   * (each step at most ten seconds) for the calls, the knowledge index's last save and the preview
   * browser.
   *
   * @param server - the MCP server to close
   */
  async dispose(server: McpServer): Promise<void> {
    this.#disposal.abort(new AgentoolError("agentool-mcp is shutting down."));
    const { knowledge, sharedKnowledge, configuration } = this.#options;
    try {
      await server.close();
    } finally {
      // Stops indexing and waits for the index's last save.
      const closing = sharedKnowledge ? undefined : knowledge?.close();
      await withDeadline(Promise.allSettled([...this.#running]), DISPOSE_GRACE_MS);
      if (closing !== undefined) await withDeadline(closing, DISPOSE_GRACE_MS);
      await withDeadline(disposePreviewTool(configuration), DISPOSE_GRACE_MS);
    }
  }

  /** The tools of a state (each note logged once while it holds). */
  #build(next: ToolSetState): AnyTool[] {
    const { configuration, knowledge, sharedKnowledge, log } = this.#options;
    const set = buildToolSet(configuration, next);
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
    this.#names = set.tools.map((tool) => tool.name);
    return set.tools.map((tool) => this.#tracked(tool));
  }

  /** The tool with a `run` that also stops on dispose and is waited for by it. */
  #tracked(tool: AnyTool): AnyTool {
    const run: AnyTool["run"] = (input, runOptions) => {
      const signals = [this.#disposal.signal, ...(runOptions?.signal ? [runOptions.signal] : [])];
      const call = tool.run(input, { ...runOptions, signal: AbortSignal.any(signals) });
      this.#running.add(call);
      void call.finally(() => this.#running.delete(call));
      return call;
    };
    return Object.freeze({ ...tool, run });
  }
}
