import { z } from "zod";
import { AgentoolError } from "./agentool-error.js";
import { ToolFailureError } from "./authoring/tool-failure-error.js";
import type { ContentBlock, ToolContent } from "./content.js";
import { subscribeToAbort } from "./internal/abort-listeners.js";
import { cancelDeadline, type Deadline, scheduleDeadline } from "./internal/deadline-scheduler.js";
import { findUnknownNestedFields } from "./internal/field-suggestions.js";
import { dropNullsForOptionalFields } from "./internal/normalize-input.js";
import { formatZodIssues } from "./internal/zod-issues.js";
import { fail, isToolResult, ok, type ToolFailure, type ToolResult } from "./result.js";
import { formatTruncationMarker } from "./truncate.js";

/** The pattern every tool name must match (snake_case, at most 64 characters). */
export const TOOL_NAME_PATTERN: RegExp = /^[a-z][a-z0-9_]{0,63}$/;

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
   * Top-level field names from other toolsets accepted silently as another name of one of this
   * tool's fields, e.g. `{ file_path: "path", old_string: "old_text" }`. Only for aliases whose
   * meaning is unambiguous; an alias is ignored when the call also sends the real field (and then
   * refused as unknown). Aliases never appear in the JSON Schema.
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

const DEFAULT_RENDER_CHARACTERS = 50_000;

function defaultRender(data: unknown): string {
  if (typeof data === "string") return data;
  if (data === undefined) return "Done.";
  let text: string;
  try {
    text = JSON.stringify(data, null, 2) ?? String(data);
  } catch {
    text = String(data);
  }
  if (text.length <= DEFAULT_RENDER_CHARACTERS) return text;
  return `${text.slice(0, DEFAULT_RENDER_CHARACTERS)}\n${formatTruncationMarker({
    omitted: text.length - DEFAULT_RENDER_CHARACTERS,
    unit: "characters",
    next: "the full result is in the tool's artifact; ask for a narrower result",
  })}`;
}

/**
 * Formats a failure for the model: `Error [CODE]: message` and, when present, the hint.
 *
 * @param error - the failure's error
 * @returns model-facing text
 * @example
 * formatToolError({ code: "FILE_NOT_FOUND", message: "a.md does not exist." }); // "Error [FILE_NOT_FOUND]: a.md does not exist."
 */
export function formatToolError(error: { code: string; message: string; hint?: string }): string {
  const hint = error.hint === undefined ? "" : `\nHint: ${error.hint}`;
  return `Error [${error.code}]: ${error.message}${hint}`;
}

function isValidContent(content: unknown): content is ToolContent {
  if (typeof content === "string") return true;
  if (!Array.isArray(content)) return false;
  return content.every((block: ContentBlock) =>
    block?.type === "text"
      ? typeof block.text === "string"
      : block?.type === "image" &&
        typeof block.data === "string" &&
        typeof block.mimeType === "string",
  );
}

const textEncoder = new TextEncoder();

function inputSizeBytes(input: unknown, maxBytes: number): number {
  let json: string | undefined;
  try {
    json = JSON.stringify(input);
  } catch {
    return Number.POSITIVE_INFINITY;
  }
  if (json === undefined) return 0;
  return json.length * 3 <= maxBytes ? json.length : textEncoder.encode(json).length;
}

function noop(): void {}

function hasNestedObjects(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    if (typeof item === "object" && item !== null) return true;
  }
  return false;
}

const EMPTY_METADATA: Readonly<Record<string, unknown>> = Object.freeze({});

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

function checkDefinition(definition: ToolDefinition<ToolInputSchema, unknown>): void {
  const where = `defineTool(${JSON.stringify(definition.name)})`;
  if (typeof definition.name !== "string" || !TOOL_NAME_PATTERN.test(definition.name)) {
    throw new AgentoolError(
      `${where}: the name must match ${TOOL_NAME_PATTERN} (snake_case, ≤ 64 characters).`,
    );
  }
  if (typeof definition.description !== "string" || definition.description.trim().length === 0) {
    throw new AgentoolError(
      `${where}: the description must be a non-empty string that teaches the model when to use the tool.`,
    );
  }
  if (!(definition.input instanceof z.ZodObject)) {
    throw new AgentoolError(`${where}: input must be a zod object (z.object({...})).`);
  }
  if (typeof definition.execute !== "function") {
    throw new AgentoolError(`${where}: execute must be a function.`);
  }
  if (definition.output !== undefined && !(definition.output instanceof z.ZodObject)) {
    throw new AgentoolError(
      `${where}: output must be a zod object schema (MCP's outputSchema is an object); leave it out for other data.`,
    );
  }
  const shape = definition.input.shape as Record<string, unknown>;
  for (const [alias, field] of Object.entries(definition.aliases ?? {})) {
    if (!Object.hasOwn(shape, field)) {
      throw new AgentoolError(
        `${where}: alias ${JSON.stringify(alias)} points at ${JSON.stringify(field)}, which is not an input field.`,
      );
    }
    if (Object.hasOwn(shape, alias)) {
      throw new AgentoolError(
        `${where}: alias ${JSON.stringify(alias)} is already an input field; an alias must be another name.`,
      );
    }
  }
  for (const [key, value] of [
    ["timeoutMs", definition.timeoutMs],
    ["maxInputBytes", definition.maxInputBytes],
  ] as const) {
    if (value !== undefined && (!Number.isFinite(value) || value < 0)) {
      throw new AgentoolError(`${where}: ${key} must be a finite number ≥ 0, got ${value}.`);
    }
  }
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
  const input = definition.input.strict() as Input;
  const timeoutMs = definition.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxInputBytes = definition.maxInputBytes ?? DEFAULT_MAX_INPUT_BYTES;
  const name = definition.name;
  const execute = definition.execute;
  const render = definition.render;
  const aliases = Object.freeze({ ...(definition.aliases ?? {}) });
  const aliasEntries = Object.entries(aliases);

  function invalidInput(lines: string[]): ToolFailure {
    return fail("INVALID_INPUT", `Invalid input for ${name}: ${lines.join("; ")}.`, {
      hint: `Fix the field${lines.length > 1 ? "s" : ""} named above and call ${name} again with arguments that match its schema.`,
    });
  }

  function run(rawInput: unknown, runOptions?: RunOptions): Promise<ToolResult<Output>> {
    try {
      const result = start(rawInput, runOptions ?? {});
      return isThenable(result) ? result : Promise.resolve(result);
    } catch (error) {
      return Promise.resolve(internalError(error));
    }
  }

  function validateInput(rawInput: unknown): ToolResult<z.output<Input>> {
    let candidate = rawInput ?? {};
    if (typeof candidate === "string") {
      try {
        candidate = JSON.parse(candidate);
      } catch {
        return invalidInput([
          "(input): expected a JSON object, received a string that is not JSON",
        ]);
      }
    }
    if (typeof candidate !== "object" || candidate === null || Array.isArray(candidate)) {
      return invalidInput([
        `(input): expected an object of named arguments, received ${Array.isArray(candidate) ? "array" : candidate === null ? "null" : typeof candidate}`,
      ]);
    }
    const size = inputSizeBytes(candidate, maxInputBytes);
    if (size > maxInputBytes) {
      return fail(
        "INVALID_INPUT",
        `Input for ${name} is too large: ${size === Number.POSITIVE_INFINITY ? "not serialisable" : `${size} bytes`} (limit ${maxInputBytes} bytes).`,
        { hint: "Send less at once: split the work into several smaller calls." },
      );
    }
    const renamed = aliasEntries.length === 0 ? candidate : applyAliases(candidate);
    const normalized = dropNullsForOptionalFields(input, renamed);
    const parsed = input.safeParse(normalized);
    if (!parsed.success) {
      // Parse again with the offending values attached, only on the slow path, to say what was received.
      const detailed = input.safeParse(normalized, { reportInput: true });
      const issues = [
        ...(detailed.error ?? parsed.error).issues,
        ...nestedUnknownIssues(normalized),
      ];
      return invalidInput(formatZodIssues(issues, input));
    }
    const nested = nestedUnknownIssues(normalized);
    if (nested.length > 0) return invalidInput(formatZodIssues(nested, input));
    return ok(parsed.data);
  }

  /** Unknown keys of nested objects, as zod issues (zod itself strips them silently). */
  function nestedUnknownIssues(value: unknown): z.core.$ZodIssue[] {
    if (!hasNestedObjects(value)) return [];
    return findUnknownNestedFields(input, value).map(
      (entry) =>
        ({
          code: "unrecognized_keys",
          keys: entry.keys,
          path: entry.path,
          message: "Unrecognized keys",
        }) as z.core.$ZodIssue,
    );
  }

  function applyAliases(candidate: object): object {
    let copy: Record<string, unknown> | undefined;
    for (const [alias, field] of aliasEntries) {
      // A field already given — by the call or by an earlier alias — leaves this alias unknown.
      if (!Object.hasOwn(candidate, alias) || Object.hasOwn(copy ?? candidate, field)) continue;
      copy ??= { ...(candidate as Record<string, unknown>) };
      copy[field] = copy[alias];
      delete copy[alias];
    }
    return copy ?? candidate;
  }

  /** Validates and starts the call; a synchronous execute yields a result without a promise. */
  function start(
    rawInput: unknown,
    options: RunOptions,
  ): ToolResult<Output> | Promise<ToolResult<Output>> {
    {
      const callerSignal = options.signal;
      if (callerSignal?.aborted) {
        return fail("ABORTED", `${name} was cancelled before it started.`, { retryable: true });
      }
      const parsed = validateInput(rawInput);
      if (!parsed.success) return parsed;

      const limit = options.timeoutMs ?? timeoutMs;
      // The signal is created on first use: most fast tools never look at it.
      let controller: AbortController | undefined;
      let outcome: "timeout" | "aborted" | undefined;
      const abortReason = () =>
        outcome === "timeout"
          ? new AgentoolError(`${name} timed out after ${limit} ms`)
          : callerSignal?.reason;
      const reportProgress = options.progress;
      const context: ToolContext = {
        get signal() {
          if (controller === undefined) {
            controller = new AbortController();
            if (outcome !== undefined) controller.abort(abortReason());
          }
          return controller.signal;
        },
        toolCallId: options.toolCallId,
        threadId: options.threadId,
        metadata:
          options.metadata === undefined ? EMPTY_METADATA : Object.freeze({ ...options.metadata }),
        progress: reportProgress
          ? (update) => {
              try {
                reportProgress(update);
              } catch {
                // A broken progress listener must not break the tool.
              }
            }
          : noop,
      };

      let returned: unknown;
      try {
        returned = execute(parsed.data, context);
      } catch (error) {
        return internalError(error);
      }
      // A synchronous execute has finished already: nothing left to time out or abort.
      if (!isThenable(returned)) return checkResult(returned);
      const pending = returned;
      return new Promise<ToolResult<Output>>((resolve) => {
        let finished = false;
        let deadline: Deadline | undefined;
        let unsubscribe: (() => void) | undefined;
        const finish = (result: ToolResult<Output>) => {
          if (finished) return;
          finished = true;
          if (deadline !== undefined) cancelDeadline(deadline);
          unsubscribe?.();
          resolve(result);
        };
        const stop = (why: "timeout" | "aborted") => {
          if (finished || outcome !== undefined) return;
          outcome = why;
          controller?.abort(abortReason());
          finish(
            why === "timeout"
              ? fail("TIMEOUT", `${name} did not finish within ${limit} ms and was stopped.`, {
                  hint: "Try a smaller request, or call again if the delay was temporary.",
                  retryable: true,
                })
              : fail("ABORTED", `${name} was cancelled by the caller.`, { retryable: true }),
          );
        };
        if (callerSignal !== undefined)
          unsubscribe = subscribeToAbort(callerSignal, () => stop("aborted"));
        if (limit > 0) deadline = scheduleDeadline(limit, () => stop("timeout"));
        pending.then(
          (result) => finish(checkResult(result)),
          (error: unknown) => finish(internalError(error)),
        );
      });
    }
  }

  function checkResult(result: unknown): ToolResult<Output> {
    if (isToolResult(result)) return result as ToolResult<Output>;
    return fail("INTERNAL", `${name} returned a malformed result (not an ok()/fail() envelope).`, {
      hint: "This is a bug in the tool; report it. Try another approach meanwhile.",
    });
  }

  function parseInput(rawInput: unknown): ToolResult<z.output<Input>> {
    try {
      return validateInput(rawInput);
    } catch (error) {
      return internalError(error);
    }
  }

  function internalError(error: unknown): ToolFailure {
    // An expected failure thrown from inside (a seam's coded error) keeps its code and hint.
    const coded = ToolFailureError.find(error);
    if (coded !== undefined) return coded.toFailure();
    let detail: string;
    try {
      detail = error instanceof Error ? error.message : String(error);
    } catch {
      detail = "unknown error";
    }
    return fail("INTERNAL", `${name} failed unexpectedly: ${detail || "unknown error"}`, {
      hint: "Check the arguments; if they are right, try another approach or report the problem.",
    });
  }

  function renderResult(result: ToolResult<Output>): ToolContent {
    try {
      if (!result.success) return formatToolError(result.error);
      const content = render ? render(result.data) : defaultRender(result.data);
      return isValidContent(content) ? content : defaultRender(result.data);
    } catch (error) {
      return `Error [INTERNAL]: ${name} could not render its result (${error instanceof Error ? error.message : String(error)}).`;
    }
  }

  const tool: Tool<Input, Output> & { [toolMarker]: true } = {
    [toolMarker]: true,
    name,
    description: definition.description,
    input,
    annotations: Object.freeze({ ...(definition.annotations ?? {}) }),
    tags: Object.freeze([...(definition.tags ?? [])]),
    timeoutMs,
    maxInputBytes,
    aliases,
    output: definition.output,
    run,
    parseInput,
    execute,
    renderResult,
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
