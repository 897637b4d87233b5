import type { AnyTool } from "@agentool/contract";
import type { WorkspaceOptionsInput } from "@agentool/tools-fs/node";
import type { ToolSetConfiguration } from "../tool-sets.js";
import type { FamilyModules } from "./family-modules.js";
import type { DesignPlan } from "./tool-set-plan.js";

/** One guarded transport per configuration for the Figma requests, kept across rebuilds. */
const designTransports = new WeakMap<
  ToolSetConfiguration,
  ReturnType<NonNullable<FamilyModules["design"]>["webNode"]["createGuardedTransport"]>
>();

/**
 * Closes the transport a configuration's design tools sent their Figma requests through.
 *
 * @param configuration - the configuration the tool sets were built from
 * @returns when it is closed
 */
export async function disposeDesignTransport(configuration: ToolSetConfiguration): Promise<void> {
  const transport = designTransports.get(configuration);
  designTransports.delete(configuration);
  await transport?.close();
}

/** The hosts the Figma transport may reach although private: `--allow-host`'s and the API's own when it was set. */
function designAllowHosts(configuration: ToolSetConfiguration): string[] {
  const hosts = [...configuration.allowHosts];
  if (configuration.figmaApiUrl !== undefined) hosts.push(new URL(configuration.figmaApiUrl).host);
  return hosts;
}

/**
 * The design family's tools: `svg_read` over the root's workspace, and with the host's Figma token
 * `design_read`, `design_tokens` and (read-write) `design_export`, sharing one SSRF-guarded
 * transport. Built one by one (not with `createDesignTools`) so read-only mode leaves the exporter
 * out.
 *
 * @param design - the family's modules
 * @param configuration - the token, the API origin, the allowed hosts
 * @param planned - which tools to build
 * @param workspace - the root's workspace, shared with the fs, code and office tools
 * @param mounted - every planned tool name
 * @returns the tools, in the family's order
 */
export function buildDesignTools(
  design: NonNullable<FamilyModules["design"]>,
  configuration: ToolSetConfiguration,
  planned: DesignPlan,
  workspace: WorkspaceOptionsInput | undefined,
  mounted: readonly string[],
): AnyTool[] {
  const tools: AnyTool[] = [];
  if (planned.svg && workspace !== undefined) {
    tools.push(design.index.createSvgReadTool({ ...workspace, mountedTools: mounted }));
  }
  const figmaToken = configuration.figmaToken;
  if (!planned.figma || figmaToken === undefined) return tools;
  let transport = designTransports.get(configuration);
  if (transport === undefined) {
    const allowHosts = designAllowHosts(configuration);
    transport = design.webNode.createGuardedTransport(
      allowHosts.length === 0 ? {} : { allowHosts },
    );
    designTransports.set(configuration, transport);
  }
  const shared = {
    figmaToken,
    transport,
    mountedTools: mounted,
    ...(configuration.figmaApiUrl === undefined ? {} : { baseUrl: configuration.figmaApiUrl }),
  };
  tools.push(
    design.index.createDesignReadTool(shared),
    design.index.createDesignTokensTool(shared),
  );
  if (planned.export && workspace !== undefined) {
    tools.push(design.index.createDesignExportTool({ ...shared, ...workspace }));
  }
  return tools;
}

/**
 * The gui family's `computer` tool on the configuration's display (the host's: it is closed by
 * whoever opened it, `agentool-mcp` when it exits).
 *
 * @param gui - the family's module
 * @param configuration - holds the display
 * @param mounted - every planned tool name
 * @returns the tool, or none without a display
 */
export function buildComputerTool(
  gui: NonNullable<FamilyModules["gui"]>,
  configuration: ToolSetConfiguration,
  mounted: readonly string[],
): AnyTool[] {
  const display = configuration.guiDisplay;
  if (display === undefined) return [];
  return [gui.createComputerTool({ display, mountedTools: mounted })];
}
