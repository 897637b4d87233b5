import { errorMessage } from "@agentool/contract";
import { dispatchCustomEvent } from "@langchain/core/callbacks/dispatch/web";
import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";
import { recordInterrupt } from "../internal/pending-interrupts.js";

/**
 * The name of the LangChain custom event that carries `notify` messages sent through a handler
 * from {@link createInterruptHandler} (when no `onNotify` is given).
 */
export const NOTIFICATION_EVENT_NAME = "agentool_notification";

/**
 * A question as `ask_user` / `confirm` from `@agentool/tools-interact` hand it to a handler; it
 * becomes the interrupt value as is:
 * `{ type: "ask_user", question, options: [{ label, description? }], allow_multiple }` or
 * `{ type: "confirm", message, default }`.
 */
export interface InterruptQuestion {
  /** Which tool asks. */
  type: "ask_user" | "confirm";
}

/** A notification as the `notify` tool hands it to a handler. */
export interface InterruptNotification {
  /** Which tool sends it. */
  type: "notify";
  /** The message. */
  message: string;
  /** `"info"`, `"warning"` or `"error"`. */
  level: string;
}

/** What the handler receives besides the question (a subset of the tools' context). */
export interface InterruptHandlerContext {
  /** The model's id for this call. */
  toolCallId: string | undefined;
}

/** What a resumed question answers with (the `resume` value, checked). */
export type InterruptAnswer = string | readonly string[] | boolean | null | undefined;

/**
 * A handler for the `@agentool/tools-interact` tools (it matches their `InteractionHandler`
 * shape; adapters does not depend on that package).
 */
export interface InterruptHandler {
  /** Pauses the graph with the question as the interrupt value; on resume, returns the answer. */
  ask(question: InterruptQuestion, context: InterruptHandlerContext): Promise<InterruptAnswer>;
  /** Sends a notification without pausing the graph. */
  notify(notification: InterruptNotification, context: InterruptHandlerContext): void;
}

/** Options of {@link createInterruptHandler}. */
export interface InterruptHandlerOptions {
  /**
   * Receives every notification (not awaited; errors ignored). Default: a LangChain custom event
   * named {@link NOTIFICATION_EVENT_NAME} with `{ type, message, level, toolCallId }`, seen by
   * `streamEvents` and callback handlers.
   */
  onNotify?: (notification: InterruptNotification & { toolCallId: string | undefined }) => unknown;
}

type LangGraphModule = typeof import("@langchain/langgraph");

let langGraph: Promise<LangGraphModule> | undefined;

function loadLangGraph(): Promise<LangGraphModule> {
  langGraph ??= import("@langchain/langgraph").catch((error: unknown) => {
    langGraph = undefined;
    throw new Error(
      `createInterruptHandler needs @langchain/langgraph (install it next to @langchain/core): ${errorMessage(error)}`,
    );
  });
  return langGraph;
}

function isAnswerList(value: unknown): value is readonly string[] {
  return Array.isArray(value) && value.every((entry) => typeof entry === "string");
}

/**
 * Reads the `resume` value: an answer (text, chosen labels, true/false, or nothing), or an
 * object as some UIs send: `{ answer }`, `{ selected_options }` (the snake_case key of
 * `ask_user`'s own data) or `{ confirmed }`.
 */
function readResume(resume: unknown): InterruptAnswer {
  if (
    resume === undefined ||
    resume === null ||
    typeof resume === "string" ||
    typeof resume === "boolean" ||
    isAnswerList(resume)
  ) {
    return resume;
  }
  if (typeof resume === "object") {
    const record = resume as { answer?: unknown; selected_options?: unknown; confirmed?: unknown };
    if ("answer" in record) return readResume(record.answer);
    if ("selected_options" in record && isAnswerList(record.selected_options)) {
      return record.selected_options;
    }
    if ("confirmed" in record) return readResume(record.confirmed);
  }
  throw new Error(
    `the graph was resumed with ${typeof resume === "object" ? "an object without answer, selected_options or confirmed" : `a ${typeof resume}`}; resume with new Command({ resume: "text" | ["label", …] | true | false })`,
  );
}

/**
 * Creates a handler for the `ask_user` and `confirm` tools of `@agentool/tools-interact` that
 * uses LangGraph's `interrupt()`: the graph pauses with the question as the interrupt value
 * (`result.__interrupt__[0].value`), and the host resumes it with
 * `new Command({ resume: answer })` on the same `thread_id`; the answer then reaches the tool and
 * the model. The graph needs a checkpointer. Use the tools through {@link toLangChainTools}
 * (which lets the interrupt through the tool's never-throwing `run`). The tools' timeouts do not
 * apply across a pause: a paused graph waits as long as its checkpoint lives. `notify` never
 * pauses.
 *
 * A `resume` value may be a string, a list of option labels (multi-select), `true` / `false`
 * (confirm), `null` (no answer), or an object `{ answer }`, `{ selected_options: [label, …] }`
 * or `{ confirmed }`.
 *
 * @param options - where notifications go
 * @returns the handler, to pass to `createInteractTools({ handler })`
 * @example
 * const tools = toLangChainTools(createInteractTools({ handler: createInterruptHandler() }));
 * const agent = createAgent({ model, tools, checkpointer: new MemorySaver() });
 * const config = { configurable: { thread_id: "t1" } };
 * const paused = await agent.invoke({ messages: [new HumanMessage("Deploy it")] }, config);
 * const question = paused.__interrupt__?.[0]?.value; // { type: "ask_user", question: "Where to?", … }
 * const done = await agent.invoke(new Command({ resume: "Staging" }), config);
 */
export function createInterruptHandler(options: InterruptHandlerOptions = {}): InterruptHandler {
  if (typeof options !== "object" || options === null) {
    throw new TypeError("createInterruptHandler: options must be an object.");
  }
  const unknownKeys = Object.keys(options).filter((key) => key !== "onNotify");
  if (unknownKeys.length > 0) {
    throw new TypeError(
      `createInterruptHandler: unknown option ${unknownKeys.join(", ")}. Known options: onNotify.`,
    );
  }
  const onNotify = options.onNotify;
  if (onNotify !== undefined && typeof onNotify !== "function") {
    throw new TypeError("createInterruptHandler: onNotify must be a function.");
  }
  return {
    async ask(question, context) {
      const { interrupt, isGraphInterrupt } = await loadLangGraph();
      const config = AsyncLocalStorageProviderSingleton.getRunnableConfig();
      if (config === undefined) {
        throw new Error(
          "there is no LangGraph run around this call; run the tools in a graph (createAgent or a ToolNode) built with toLangChainTools",
        );
      }
      let resume: unknown;
      try {
        resume = interrupt(question);
      } catch (error) {
        if (isGraphInterrupt(error)) {
          recordInterrupt(config, context.toolCallId, error);
          throw error;
        }
        const detail = errorMessage(error);
        throw new Error(
          /checkpointer/i.test(detail)
            ? `${detail}; compile the graph with a checkpointer (e.g. createAgent({ …, checkpointer: new MemorySaver() })) so it can pause for the user`
            : detail,
        );
      }
      return readResume(resume);
    },
    notify(notification, context) {
      const payload = { ...notification, toolCallId: context.toolCallId };
      try {
        if (onNotify !== undefined) {
          Promise.resolve(onNotify(payload)).catch(() => {});
          return;
        }
        const config = AsyncLocalStorageProviderSingleton.getRunnableConfig();
        if (config !== undefined) {
          dispatchCustomEvent(NOTIFICATION_EVENT_NAME, payload, config).catch(() => {});
        }
      } catch {
        // Fire-and-forget: a failing listener must not break the tool call.
      }
    },
  };
}
