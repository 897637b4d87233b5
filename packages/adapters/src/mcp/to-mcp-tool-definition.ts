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
  /** A human-readable title (left out: the definition's top-level `title` carries it). */
  title?: string;
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
  /** The data's JSON Schema, for tools that declare `output` when `outputSchemas` is on (unless `structuredContent: "never"`). */
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
 * The human-readable title of a tool: its `annotations.title`, or one made from its name.
 *
 * @param tool - a contract tool
 * @returns the title (`read_file` → `Read file`)
 */
export function toMcpTitle(tool: AnyTool): string {
  return tool.annotations.title ?? titleFromName(tool.name);
}

/**
 * MCP's annotations of a tool, every hint that means something and nothing twice. The contract
 * reads a missing flag as `false` (nothing is destructive or open-world by surprise) while MCP
 * reads a missing `destructiveHint` / `openWorldHint` as `true`, so those are sent explicitly. A
 * read-only tool gets `readOnlyHint` and `openWorldHint` only: MCP defines `destructiveHint` and
 * `idempotentHint` as meaningful only when `readOnlyHint` is false. The title is the definition's
 * top-level `title` (MCP 2025-06-18), not repeated here — these bytes reach every model's context.
 *
 * @param tool - a contract tool
 * @returns the annotations
 * @example
 * toMcpAnnotations(readFile); // { readOnlyHint: true, openWorldHint: false }
 * toMcpAnnotations(deleteFile); // { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false }
 */
export function toMcpAnnotations(tool: AnyTool): McpToolAnnotations {
  const source = tool.annotations;
  const openWorldHint = source.openWorld === true;
  if (source.readOnly === true) return { readOnlyHint: true, openWorldHint };
  return {
    readOnlyHint: false,
    destructiveHint: source.destructive === true,
    idempotentHint: source.idempotent === true,
    openWorldHint,
  };
}

/**
 * The `tools/list` entry of one tool: name, title, description, `inputSchema` (the contract's
 * `toJsonSchema`), `outputSchema` (the contract's `toOutputJsonSchema`, for a tool that declares
 * `output`, unless `outputSchemas` is `false` or `structuredContent` is `"never"`) and
 * annotations (see {@link toMcpAnnotations}).
 *
 * @param tool - a contract tool
 * @param options - `outputSchemas` and `structuredContent` decide whether `outputSchema` is listed
 * @returns the definition, ready for a `tools/list` result
 * @throws AgentoolError for invalid options or a schema that cannot become JSON Schema
 * @example
 * toMcpToolDefinition(gitStatus);
 * // { name: "git_status", title: "Git status", description: "…", inputSchema: {…}, outputSchema: {…},
 * //   annotations: { readOnlyHint: true, openWorldHint: false } }
 */
export function toMcpToolDefinition(
  tool: AnyTool,
  options?: RegisterToolsOptions,
): McpToolDefinition {
  const parsed = parseOptions("toMcpToolDefinition", registerToolsOptionsSchema, options);
  return buildToolDefinition(tool, {
    structuredContent: parsed.structuredContent ?? "declared",
    outputSchemas: parsed.outputSchemas ?? true,
  });
}

/** What decides the optional parts of a definition (parsed options). @internal */
export interface DefinitionListing {
  /** The parsed `structuredContent` mode. */
  structuredContent: NonNullable<RegisterToolsOptions["structuredContent"]>;
  /** Whether `outputSchema` is listed for tools that declare `output`. */
  outputSchemas: boolean;
}

/**
 * {@link toMcpToolDefinition} without the options check (options already parsed).
 *
 * @param tool - a contract tool
 * @param listing - the parsed `structuredContent` mode and `outputSchemas` switch
 * @returns the definition
 * @internal
 */
export function buildToolDefinition(tool: AnyTool, listing: DefinitionListing): McpToolDefinition {
  const annotations = toMcpAnnotations(tool);
  const definition: McpToolDefinition = {
    name: tool.name,
    title: toMcpTitle(tool),
    description: tool.description,
    inputSchema: toJsonSchema(tool) as McpObjectSchema,
    annotations,
  };
  if (listing.outputSchemas && listing.structuredContent !== "never") {
    const outputSchema = toOutputJsonSchema(tool);
    if (outputSchema !== undefined) definition.outputSchema = outputSchema as McpObjectSchema;
  }
  return definition;
}
