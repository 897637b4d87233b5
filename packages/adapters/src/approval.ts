import type { AnyTool } from "@agentool/contract";

/** What an {@link ApproveFunction} is asked about: one call of a tool annotated `destructive`. */
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
 * A gate that runs before every call of a tool annotated `destructive: true`. Only a result of
 * exactly `true` lets the call run; `false`, any other value, a rejection or a throw refuses it,
 * and the model receives `Error [BLOCKED]: …` telling it the user did not approve.
 *
 * @param call - the tool, its name, the model's arguments and ids
 * @returns `true` to run the call
 * @example
 * const approve: ApproveFunction = async ({ name, input }) => askUser(`Run ${name} with ${JSON.stringify(input)}?`);
 */
export type ApproveFunction = (call: ApprovalRequest) => boolean | Promise<boolean>;
