import type { z } from "zod";
import type { ToolContent } from "../content.js";
import type { ToolContext, ToolInputSchema } from "../define-tool.js";
import type { ToolResult } from "../result.js";
import type { AliasEntry } from "./field-aliases.js";

/**
 * What one tool's calls need from its definition, resolved once by `defineTool`: the steps of a
 * call (validation, the run lifecycle, rendering) read it instead of closing over it.
 *
 * @internal
 */
export interface ToolCore<Input extends ToolInputSchema, Output> {
  /** The tool's name. */
  readonly name: string;
  /** The strict input schema. */
  readonly input: Input;
  /** The definition's `execute`. */
  readonly execute: (
    input: z.output<Input>,
    context: ToolContext,
  ) => Promise<ToolResult<Output>> | ToolResult<Output>;
  /** The definition's `render`, if any. */
  readonly render: ((data: Output) => ToolContent) | undefined;
  /** Default time limit in milliseconds (`0` = none). */
  readonly timeoutMs: number;
  /** Cap on the JSON size of one call's input. */
  readonly maxInputBytes: number;
  /** The field aliases, parsed (top-level and nested). */
  readonly aliasEntries: readonly AliasEntry[];
}
