import type { AnyTool, ToolAnnotations } from "@agentool/contract";

/**
 * What a {@link RequireApprovalFunction} decides about: a tool's name (as the model sees it,
 * overrides applied), its annotations and its tags — the facts that do not change from call to
 * call.
 */
export interface ApprovalCandidate {
  /** The tool's name, as the model sees it. */
  name: string;
  /** The tool's annotations (`readOnly`, `destructive`, `idempotent`, `openWorld`, `title`). */
  annotations: Readonly<ToolAnnotations>;
  /** The tool's tags (e.g. `"fs:write"`, `"web"`). */
  tags: readonly string[];
}

/**
 * Which tools go through the approval gate: `true` means every call of that tool waits for
 * `approve`. Asked once per tool, when the tools are converted or the dispatcher is made (not on
 * every call). It must return a boolean; a throw or any other value is a setup error.
 *
 * @param tool - the tool's name, annotations and tags
 * @returns `true` when every call of the tool must be approved
 * @example
 * // Ask before anything destructive and before anything that talks to the outside world.
 * const requireApproval: RequireApprovalFunction = (tool) =>
 *   tool.annotations.destructive === true || tool.annotations.openWorld === true;
 */
export type RequireApprovalFunction = (tool: ApprovalCandidate) => boolean;

/**
 * The default `requireApproval`: a tool needs approval when it is annotated `destructive: true`.
 * Compose with it to widen the gate.
 *
 * @param tool - the tool's name, annotations and tags
 * @returns `true` for tools annotated `destructive: true`
 * @example
 * const requireApproval = (tool: ApprovalCandidate) =>
 *   defaultRequireApproval(tool) || tool.name === "web_fetch";
 */
export function defaultRequireApproval(tool: ApprovalCandidate): boolean {
  return tool.annotations.destructive === true;
}

/** What an {@link ApproveFunction} is asked about: one call of a tool that needs approval. */
export interface ApprovalRequest {
  /** The tool about to run (with any name/description overrides applied). */
  tool: AnyTool;
  /** The tool's name, as the model sees it. */
  name: string;
  /** The validated arguments (defaults applied, `null` for optional fields dropped): exactly what will run. */
  input: unknown;
  /** The model's id for this call, when there is one. */
  toolCallId: string | undefined;
  /** The conversation / thread id, when the host has one. */
  threadId: string | undefined;
}

/**
 * A gate that runs before every call of a tool that needs approval — by default those annotated
 * `destructive: true`; the `requireApproval` option picks others. Only a result of exactly
 * `true` lets the call run; `false`, any other value, a rejection or a throw refuses it, and the
 * model receives `Error [BLOCKED]: …` telling it the user did not approve.
 *
 * @param call - the tool, its name, the model's arguments and ids
 * @returns `true` to run the call
 * @example
 * const approve: ApproveFunction = async ({ name, input }) => askUser(`Run ${name} with ${JSON.stringify(input)}?`);
 */
export type ApproveFunction = (call: ApprovalRequest) => boolean | Promise<boolean>;
