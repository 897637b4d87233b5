import {
  type AnyTool,
  type JsonSchema,
  parseOptions,
  toJsonSchema,
  toOutputJsonSchema,
} from "@agentool/contract";
import { registerToolsOptionsSchema } from "./internal/register-tools-options-schema.js";
import type { RegisterToolsOptions } from "./register-tools-options.js";

/** MCP's hints about a tool (`annotations` of a `tools/list` entry). */
export interface McpToolAnnotations {
  /** A human-readable title. */
  title: string;
  /** The tool does not change its environment. */
  readOnlyHint?: boolean;
  /** The tool may destroy or overwrite data (meaningful when it is not read-only). */
  destructiveHint?: boolean;
  /** Repeating the same call has no further effect. */
  idempotentHint?: boolean;
  /** The tool talks to the outside world. */
  openWorldHint?: boolean;
}

/** A JSON Schema of an object, as MCP's `inputSchema` and `outputSchema` require. */
export type McpObjectSchema = JsonSchema & { type: "object" };

/** One entry of a `tools/list` result. */
export interface McpToolDefinition {
  /** The tool's snake_case name. */
  name: string;
  /** A human-readable title (the tool's `annotations.title`, or one made from its name). */
  title: string;
  /** The tool's description. */
  description: string;
  /** The input's JSON Schema, as `toJsonSchema` gives it. */
  inputSchema: McpObjectSchema;
  /** The data's JSON Schema, for tools that declare `output` (unless `structuredContent: "never"`). */
  outputSchema?: McpObjectSchema;
  /** The tool's annotations under MCP's names. */
  annotations: McpToolAnnotations;
}

/**
 * A title made from a snake_case name: `read_file` → `Read file`.
 *
 * @param name - the tool's name
 * @returns the title
 */
function titleFromName(name: string): string {
  const words = name.split("_").filter((word) => word.length > 0);
  const text = words.join(" ");
  return text.length === 0 ? name : `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

/**
 * MCP's annotations of a tool: all four hints, always. The contract reads a missing flag as
 * `false` (nothing is destructive or open-world by surprise) while MCP reads a missing
 * `destructiveHint` / `openWorldHint` as `true`, so every hint is sent explicitly; a read-only
 * tool is never destructive.
 *
 * @param tool - a contract tool
 * @returns the annotations, title included
 * @example
 * toMcpAnnotations(readFile); // { title: "Read file", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }
 */
export function toMcpAnnotations(tool: AnyTool): McpToolAnnotations {
  const source = tool.annotations;
  const readOnly = source.readOnly === true;
  return {
    title: source.title ?? titleFromName(tool.name),
    readOnlyHint: readOnly,
    destructiveHint: !readOnly && source.destructive === true,
    idempotentHint: source.idempotent === true,
    openWorldHint: source.openWorld === true,
  };
}

/**
 * The `tools/list` entry of one tool: name, title, description, `inputSchema` (the contract's
 * `toJsonSchema`), `outputSchema` (the contract's `toOutputJsonSchema`, for a tool that declares
 * `output`, unless `structuredContent` is `"never"`) and annotations
 * `{ title, readOnlyHint, destructiveHint, idempotentHint, openWorldHint }`.
 *
 * @param tool - a contract tool
 * @param options - `structuredContent` decides whether `outputSchema` is listed
 * @returns the definition, ready for a `tools/list` result
 * @throws AgentoolError for invalid options or a schema that cannot become JSON Schema
 * @example
 * toMcpToolDefinition(gitStatus);
 * // { name: "git_status", title: "Git status", description: "…", inputSchema: {…}, outputSchema: {…},
 * //   annotations: { title: "Git status", readOnlyHint: true, destructiveHint: false, idempotentHint: true } }
 */
export function toMcpToolDefinition(
  tool: AnyTool,
  options?: RegisterToolsOptions,
): McpToolDefinition {
  const parsed = parseOptions("toMcpToolDefinition", registerToolsOptionsSchema, options);
  return buildToolDefinition(tool, parsed.structuredContent ?? "declared");
}

/**
 * {@link toMcpToolDefinition} without the options check (options already parsed).
 *
 * @param tool - a contract tool
 * @param structuredContent - the parsed mode
 * @returns the definition
 * @internal
 */
export function buildToolDefinition(
  tool: AnyTool,
  structuredContent: NonNullable<RegisterToolsOptions["structuredContent"]>,
): McpToolDefinition {
  const annotations = toMcpAnnotations(tool);
  const definition: McpToolDefinition = {
    name: tool.name,
    title: annotations.title,
    description: tool.description,
    inputSchema: toJsonSchema(tool) as McpObjectSchema,
    annotations,
  };
  if (structuredContent !== "never") {
    const outputSchema = toOutputJsonSchema(tool);
    if (outputSchema !== undefined) definition.outputSchema = outputSchema as McpObjectSchema;
  }
  return definition;
}
