import { z } from "zod";
import { AgentoolError } from "../agentool-error.js";
import type { ToolDefinition, ToolInputSchema } from "../define-tool.js";
import { aliasTargetFields, parseAliases } from "./field-aliases.js";

/** The pattern every tool name must match (snake_case, at most 64 characters). */
export const TOOL_NAME_PATTERN: RegExp = /^[a-z][a-z0-9_]{0,63}$/;

/**
 * Checks a tool definition at creation, with a message that says what to fix.
 *
 * @param definition - what `defineTool` was given
 * @throws {AgentoolError} for a bad name, description, input, execute, output, alias or limit
 */
export function checkDefinition(definition: ToolDefinition<ToolInputSchema, unknown>): void {
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
  checkAliases(where, definition);
  for (const [key, value] of [
    ["timeoutMs", definition.timeoutMs],
    ["maxInputBytes", definition.maxInputBytes],
  ] as const) {
    if (value !== undefined && (!Number.isFinite(value) || value < 0)) {
      throw new AgentoolError(`${where}: ${key} must be a finite number ≥ 0, got ${value}.`);
    }
  }
}

/** Every alias names a field of the object it applies to and is not one itself. */
function checkAliases(where: string, definition: ToolDefinition<ToolInputSchema, unknown>): void {
  const parsed = parseAliases(definition.aliases ?? {});
  if ("error" in parsed) throw new AgentoolError(`${where}: ${parsed.error}.`);
  for (const entry of parsed.entries) {
    const name = [
      ...entry.steps.map((step) => `${step.key}${step.each ? "[]" : ""}`),
      entry.alias,
    ].join(".");
    const fields = aliasTargetFields(definition.input, entry);
    if (typeof fields === "string") {
      throw new AgentoolError(`${where}: alias ${JSON.stringify(name)}: ${fields}.`);
    }
    if (!fields.includes(entry.field)) {
      throw new AgentoolError(
        `${where}: alias ${JSON.stringify(name)} points at ${JSON.stringify(entry.field)}, which is not an input field.`,
      );
    }
    if (fields.includes(entry.alias)) {
      throw new AgentoolError(
        `${where}: alias ${JSON.stringify(name)} is already an input field; an alias must be another name.`,
      );
    }
  }
}
