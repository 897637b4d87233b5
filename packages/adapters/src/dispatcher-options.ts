import type { ToolProgress } from "@agentool/contract";
import type { ApproveFunction, RequireApprovalFunction } from "./approval.js";

/** A progress report from one dispatched call, tagged with the call it belongs to. */
export interface DispatchProgress extends ToolProgress {
  /** The tool's name. */
  tool: string;
  /** The provider's id for the call, when there is one. */
  toolCallId: string | undefined;
}

/** Options of every provider dispatcher (`createOpenAiToolDispatcher` and the others). */
export interface DispatcherOptions {
  /**
   * Runs before every call of a tool that needs approval (see `requireApproval`; by default the
   * tools annotated `destructive: true`); anything but `true` refuses the call with
   * `Error [BLOCKED]: …`. Without it, tools annotated `destructive: true` are refused unless
   * `allowDestructive` is `true`; every other tool runs unasked.
   */
  approve?: ApproveFunction;
  /**
   * Which tools need approval, decided once per tool from its name, annotations and tags.
   * Default: `defaultRequireApproval` (annotated `destructive: true`). Needs `approve`.
   *
   * @example
   * { approve, requireApproval: (tool) => tool.annotations.openWorld === true }
   */
  requireApproval?: RequireApprovalFunction;
  /**
   * The host's decision to run tools annotated `destructive: true` without asking. Default
   * `false`: without `approve`, their calls are refused with `Error [BLOCKED]: …` and never run.
   */
  allowDestructive?: boolean;
  /** Host values passed to every tool as `context.metadata` (per-call metadata wins). */
  metadata?: Record<string, unknown>;
}

/** Per-call options of `dispatch` / `dispatchAll`. */
export interface DispatchRunOptions {
  /** Cancels the call(s); a cancelled call resolves to an `ABORTED` error result. */
  signal?: AbortSignal;
  /** The conversation / thread id, passed to the tool as `context.threadId`. */
  threadId?: string;
  /** Receives progress reports of long work, tagged with tool name and call id. */
  progress?: (update: DispatchProgress) => void;
  /** Overrides each tool's `timeoutMs` for this call (`0` = no timeout). */
  timeoutMs?: number;
  /** Host values passed to the tool as `context.metadata`, merged over the dispatcher's. */
  metadata?: Record<string, unknown>;
}
