import { fail, ok, type ToolContext, type ToolResult } from "@agentool/contract";
import type { PreviewAction, PreviewBackend } from "../preview-backend.js";
import { CallDeadline } from "./call-deadline.js";
import { callFailure, cutOffFailure } from "./call-failures.js";
import {
  type EngineSettings,
  type PreviewEngineOptions,
  resolveEngineSettings,
} from "./engine-options.js";
import type { EngineScope } from "./engine-scope.js";
import { actWork } from "./ops/act-op.js";
import { closeSession } from "./ops/close-op.js";
import { evalWork } from "./ops/eval-op.js";
import { openArtifact } from "./ops/open-op.js";
import { readWork } from "./ops/read-op.js";
import type { SessionWork } from "./ops/session-work.js";
import { shotWork } from "./ops/shot-op.js";
import type { PreviewToolData } from "./preview-data.js";
import { type PreviewInput, type PreviewOp, refuseIncompleteInput } from "./preview-input.js";
import type { PreviewSession } from "./preview-session.js";
import { SessionPool } from "./session-pool.js";

/**
 * The op engine both backends share: input checks the schema cannot make, sessions per
 * conversation (idle-out, FIFO cap, one call at a time), a deadline inside the tool's timeout
 * for every call, console collection, and the mapping of failures to envelopes.
 */
export class PreviewEngine implements EngineScope {
  readonly settings: EngineSettings;
  readonly pool: SessionPool;
  readonly source: Pick<PreviewEngineOptions, "read" | "fileSystem">;
  #disposed = false;

  /**
   * @param backend - where artifacts run
   * @param options - artifact source, limits, overrides (already validated by the factory)
   */
  constructor(
    readonly backend: PreviewBackend,
    options: PreviewEngineOptions,
  ) {
    this.settings = resolveEngineSettings(options);
    this.pool = new SessionPool(this.settings.idleMs);
    this.source = options;
  }

  /** Whether {@link PreviewEngine.dispose} was called. */
  get disposed(): boolean {
    return this.#disposed;
  }

  /**
   * Runs one call.
   *
   * @param input - the validated input
   * @param context - the call's context (its `threadId` picks the session)
   * @returns the op's response, or a failure
   */
  async execute(input: PreviewInput, context: ToolContext): Promise<ToolResult<PreviewToolData>> {
    if (this.#disposed)
      return fail("NOT_CONFIGURED", `${this.settings.name} has been disposed by the host.`, {
        hint: "The host must create the preview tool again.",
      });
    const refused = refuseIncompleteInput(input, this.settings);
    if (refused !== undefined) return refused;
    const thread = context.threadId ?? "default";
    switch (input.op) {
      case "open":
        return openArtifact(this, thread, input.path as string, context);
      case "act":
        return this.#withSession(thread, "act", actWork(input.actions as PreviewAction[]), context);
      case "read":
        return this.#withSession(thread, "read", readWork(input.queries ?? []), context);
      case "eval":
        return this.#withSession(thread, "eval", evalWork(input.code as string), context);
      case "shot":
        return this.#withSession(thread, "shot", shotWork(this.backend.kind), context);
      case "close":
        return closeSession(this, thread);
    }
  }

  /** Closes every session and releases the backend. */
  async dispose(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    await this.pool.endAll("the tool was disposed");
    await this.backend.dispose();
  }

  /** Queues an op on the conversation's session (calls of one conversation never overlap). */
  #withSession(
    thread: string,
    op: PreviewOp,
    work: SessionWork,
    context: ToolContext,
  ): Promise<ToolResult<PreviewToolData>> {
    const session = this.pool.get(thread);
    if (session === undefined) {
      const why = this.pool.whyEnded(thread);
      return Promise.resolve(
        fail(
          "INVALID_INPUT",
          `No preview session is open${why === undefined ? "" : ` (${why})`}.`,
          {
            hint: `Call ${this.settings.name} with op "open" and the artifact's path first, then ${op} again.`,
          },
        ),
      );
    }
    const run = session.queue.then(() => this.#runOnSession(session, op, work, context));
    session.queue = run.catch(() => {});
    return run;
  }

  /** Runs an op's work under the call's deadline, then collects the console. */
  async #runOnSession(
    session: PreviewSession,
    op: PreviewOp,
    work: SessionWork,
    context: ToolContext,
  ): Promise<ToolResult<PreviewToolData>> {
    if (session.closed)
      return fail(
        "INVALID_INPUT",
        `The preview session was closed (${this.pool.whyEnded(session.thread) ?? "closed"}).`,
        { hint: `Call ${this.settings.name} with op "open" again.` },
      );
    session.calls += 1;
    session.busy += 1;
    this.pool.touch(session);
    const deadline = new CallDeadline(context, this.settings.deadlineMs);
    try {
      const partial = await work(session, deadline.signal);
      const output = await session.drainConsole();
      return ok({
        op,
        session: session.data(
          session.closed ? "closed" : "open",
          this.settings.idleMs,
          this.backend.kind,
        ),
        ...partial,
        console: output.entries,
        console_omitted: output.omitted,
      } as PreviewToolData);
    } catch (error) {
      if (deadline.signal.aborted)
        return await cutOffFailure(this.pool, this.settings, session, deadline.reason(), op);
      return callFailure(this.settings, error, op);
    } finally {
      deadline.done();
      session.busy -= 1;
      if (!session.closed) this.pool.touch(session);
    }
  }
}
