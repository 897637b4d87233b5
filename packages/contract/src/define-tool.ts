import type { z } from "zod";
import type { ToolContent } from "./content.js";
import { internalError } from "./define-tool/call-failures.js";
import { checkDefinition } from "./define-tool/check-definition.js";
import { type AliasEntry, parseAliases } from "./define-tool/field-aliases.js";
import { renderResult } from "./define-tool/render-result.js";
import { isThenable, startCall } from "./define-tool/start-call.js";
import type { ToolCore } from "./define-tool/tool-core.js";
import { validateInput } from "./define-tool/validate-input.js";
import type { ToolResult } from "./result.js";

export { TOOL_NAME_PATTERN } from "./define-tool/check-definition.js";
export { formatToolError } from "./define-tool/render-result.js";

/** Default `timeoutMs` of a tool: 30 seconds. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** Default cap on the JSON size of one call's input: 1 MiB. */
export const DEFAULT_MAX_INPUT_BYTES = 1_048_576;

/** Hints for hosts and protocols (the MCP annotation names). */
export interface ToolAnnotations {
  /** A human-readable title. */
  title?: string;
  /** The tool does not change its environment. */
  readOnly?: boolean;
  /** The tool may destroy or overwrite data; hosts may ask for approval. */
  destructive?: boolean;
  /** Repeating the same call has no further effect. */
  idempotent?: boolean;
  /** The tool talks to the outside world (network, people). */
  openWorld?: boolean;
}

/** A progress report from long work. */
export interface ToolProgress {
  /** What is happening now. */
  message?: string;
  /** Units done so far. */
  completed?: number;
  /** Units in all, when known. */
  total?: number;
}

/** What `execute` receives besides its input. */
export interface ToolContext {
  /** Aborted when the caller aborts or the timeout fires: pass it to every await that can stop. */
  signal: AbortSignal;
  /** The model's id for this call, when there is one. */
  toolCallId: string | undefined;
  /** The conversation / thread id, when the host has one. */
  threadId: string | undefined;
  /** Reports progress of long work; never throws. */
  progress(update: ToolProgress): void;
  /** Host-supplied values for this call (read-only). */
  metadata: Readonly<Record<string, unknown>>;
}

/** What a caller may pass to `run`. */
export interface RunOptions {
  /** Cancels the call; `run` then resolves to an `ABORTED` failure. */
  signal?: AbortSignal;
  /** The model's id for this call. */
  toolCallId?: string;
  /** The conversation / thread id. */
  threadId?: string;
  /** Receives progress reports. Errors it throws are ignored. */
  progress?: (update: ToolProgress) => void;
  /** Overrides the tool's `timeoutMs` for this call (`0` = no timeout). */
  timeoutMs?: number;
  /** Host-supplied values, passed to `execute` as `context.metadata`. */
  metadata?: Record<string, unknown>;
}

/** The input schema of a tool: a zod object with snake_case keys, each described. */
export type ToolInputSchema = z.ZodObject<z.ZodRawShape>;

/** What {@link defineTool} takes. */
export interface ToolDefinition<Input extends ToolInputSchema, Output> {
  /** snake_case, matching {@link TOOL_NAME_PATTERN}. */
  name: string;
  /** Teaches the model when and how to use the tool. */
  description: string;
  /** A zod object; made strict (unknown keys are refused). */
  input: Input;
  /** Hints for hosts and protocols. */
  annotations?: ToolAnnotations;
  /** Labels for host allow-lists, e.g. `["fs:read"]`. */
  tags?: readonly string[];
  /** Time limit in milliseconds (`0` = none). Default {@link DEFAULT_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** Cap on the JSON size of one call's input. Default {@link DEFAULT_MAX_INPUT_BYTES}. */
  maxInputBytes?: number;
  /**
   * Field names from other toolsets accepted silently as another name of one of this tool's
   * fields, e.g. `{ file_path: "path", old_string: "old_text" }`. A key may be a path to a nested
   * object: `"edits[].old_string": "old_text"` renames in each element of the list `edits`,
   * `"options.dryRun": "dry_run"` inside the object `options`. Only for aliases whose meaning is
   * unambiguous; an alias is ignored when the call also sends the real field (and then refused as
   * unknown). Aliases never appear in the JSON Schema.
   */
  aliases?: Readonly<Record<string, string>>;
  /** Does the work. May throw (mapped to `INTERNAL`); should honour `context.signal`. */
  execute(
    input: z.output<Input>,
    context: ToolContext,
  ): Promise<ToolResult<Output>> | ToolResult<Output>;
  /** Model-facing text or content blocks for successful data. Default: the data as JSON. */
  render?(data: Output): ToolContent;
  /**
   * A zod schema of the successful `data`, for hosts that read structured results (MCP's
   * `outputSchema` + `structuredContent`). Optional: declare it where the data is the answer a
   * program wants (a status, a count), not for large listings whose rendered text says the same
   * thing more compactly. Must be an object schema; the conformance kit checks every sample's data
   * against it.
   */
  output?: z.ZodType<Output>;
}

/** The `{ name?, description? }` a host may override on any tool. */
export interface ToolOverrides {
  /** A new snake_case name. */
  name?: string;
  /** A new description. */
  description?: string;
}

const toolMarker = Symbol.for("agentool.tool");

/** A tool made by {@link defineTool}. */
export interface Tool<Input extends ToolInputSchema = ToolInputSchema, Output = unknown> {
  /** snake_case name. */
  readonly name: string;
  /** Teaches the model when and how to use the tool. */
  readonly description: string;
  /** The strict zod input schema. */
  readonly input: Input;
  /** Hints for hosts and protocols. */
  readonly annotations: Readonly<ToolAnnotations>;
  /** Labels for host allow-lists. */
  readonly tags: readonly string[];
  /** Time limit in milliseconds (`0` = none). */
  readonly timeoutMs: number;
  /** Cap on the JSON size of one call's input. */
  readonly maxInputBytes: number;
  /** Field aliases accepted silently (alias → field). */
  readonly aliases: Readonly<Record<string, string>>;
  /** The zod schema of the successful data, when the tool declares one. */
  readonly output: z.ZodType<Output> | undefined;
  /**
   * Validates the input, runs the tool under its timeout and the caller's signal, and resolves
   * to an envelope. Never rejects, whatever it is given.
   */
  run(input: unknown, options?: RunOptions): Promise<ToolResult<Output>>;
  /**
   * Validates raw input exactly as `run` does (JSON string parsing, size cap, `null` for optional
   * fields, strict schema) without running the tool: `ok(validated input)` or the same
   * `INVALID_INPUT` failure `run` would return. Hosts use it to show an approval prompt the
   * validated arguments, or to skip asking about a call that would fail anyway.
   */
  parseInput(input: unknown): ToolResult<z.output<Input>>;
  /** The raw `execute` of the definition (no validation, no timeout). */
  execute(
    input: z.output<Input>,
    context: ToolContext,
  ): Promise<ToolResult<Output>> | ToolResult<Output>;
  /** Model-facing content for an envelope: rendered data, or `Error [CODE]: message` plus hint. */
  renderResult(result: ToolResult<Output>): ToolContent;
  /** A copy with another name and/or description. */
  withOverrides(overrides: ToolOverrides): Tool<Input, Output>;
}

/** Any tool, whatever its input and output types. */
// biome-ignore lint/suspicious/noExplicitAny: a heterogeneous tool list needs the widest input type
export type AnyTool = Tool<any, any>;

/**
 * Tells whether a value is a tool made by {@link defineTool} (works across package copies).
 *
 * @param value - anything
 * @returns `true` for an agentool tool
 */
export function isTool(value: unknown): value is AnyTool {
  return typeof value === "object" && value !== null && toolMarker in value;
}

const NO_RUN_OPTIONS: RunOptions = Object.freeze({});

/** The aliases parsed; `checkDefinition` has already refused a key that does not parse. */
function parseAliasEntries(aliases: Readonly<Record<string, string>>): AliasEntry[] {
  const parsed = parseAliases(aliases);
  return "entries" in parsed ? parsed.entries : [];
}

/**
 * Defines a tool: a name, a description that teaches the model, a zod input schema and an
 * `execute`. The returned tool's `run` validates input (every bad field named), enforces the
 * timeout and the caller's signal, maps anything thrown to `INTERNAL`, and never rejects.
 *
 * Throws {@link AgentoolError} at definition time for a bad definition (a programmer error).
 *
 * @param definition - the tool's parts
 * @returns a frozen {@link Tool}
 * @example
 * const echo = defineTool({
 *   name: "echo",
 *   description: "Repeats the text back. Use it to test wiring.",
 *   input: z.object({ text: z.string().describe("What to repeat.") }),
 *   annotations: { readOnly: true, idempotent: true },
 *   execute: ({ text }) => ok({ text }),
 *   render: ({ text }) => text,
 * });
 * await echo.run({ text: "hi" }); // { success: true, data: { text: "hi" } }
 */
export function defineTool<Input extends ToolInputSchema, Output>(
  definition: ToolDefinition<Input, Output>,
): Tool<Input, Output> {
  checkDefinition(definition as unknown as ToolDefinition<ToolInputSchema, unknown>);
  const aliases = Object.freeze({ ...(definition.aliases ?? {}) });
  const core: ToolCore<Input, Output> = {
    name: definition.name,
    input: definition.input.strict() as Input,
    execute: definition.execute,
    render: definition.render,
    timeoutMs: definition.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxInputBytes: definition.maxInputBytes ?? DEFAULT_MAX_INPUT_BYTES,
    aliasEntries: parseAliasEntries(aliases),
  };

  const tool: Tool<Input, Output> & { [toolMarker]: true } = {
    [toolMarker]: true,
    name: core.name,
    description: definition.description,
    input: core.input,
    annotations: Object.freeze({ ...(definition.annotations ?? {}) }),
    tags: Object.freeze([...(definition.tags ?? [])]),
    timeoutMs: core.timeoutMs,
    maxInputBytes: core.maxInputBytes,
    aliases,
    output: definition.output,
    run(rawInput: unknown, runOptions?: RunOptions): Promise<ToolResult<Output>> {
      try {
        const result = startCall(core, rawInput, runOptions ?? NO_RUN_OPTIONS);
        return isThenable(result) ? result : Promise.resolve(result);
      } catch (error) {
        return Promise.resolve(internalError(core.name, error));
      }
    },
    parseInput(rawInput: unknown): ToolResult<z.output<Input>> {
      try {
        return validateInput(core, rawInput);
      } catch (error) {
        return internalError(core.name, error);
      }
    },
    execute: core.execute,
    renderResult: (result: ToolResult<Output>): ToolContent => renderResult(core, result),
    withOverrides(overrides: ToolOverrides) {
      return defineTool({
        ...definition,
        name: overrides.name ?? definition.name,
        description: overrides.description ?? definition.description,
      });
    },
  };
  return Object.freeze(tool);
}
