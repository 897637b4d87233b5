import { AgentoolError, type AnyTool, isTool } from "@agentool/contract";

/**
 * Checks a list of tools and indexes it by name.
 *
 * @param owner - the public function's name, used in error messages
 * @param tools - tools made by `defineTool`
 * @returns the tools by name, in the given order
 * @throws AgentoolError when an entry is not a tool or two tools share a name
 */
export function createToolRegistry(
  owner: string,
  tools: readonly AnyTool[],
): ReadonlyMap<string, AnyTool> {
  if (!Array.isArray(tools)) {
    throw new AgentoolError(`${owner}: expected an array of tools made by defineTool.`);
  }
  const registry = new Map<string, AnyTool>();
  tools.forEach((tool, index) => {
    if (!isTool(tool)) {
      throw new AgentoolError(
        `${owner}: the entry at index ${index} is not a tool made by defineTool.`,
      );
    }
    if (registry.has(tool.name)) {
      throw new AgentoolError(
        `${owner}: two tools are named ${JSON.stringify(tool.name)}; give one a new name with tool.withOverrides({ name }).`,
      );
    }
    registry.set(tool.name, tool);
  });
  return registry;
}
