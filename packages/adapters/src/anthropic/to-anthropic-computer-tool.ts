import { AgentoolError, type AnyTool, parseOptions } from "@agentool/contract";
import { z } from "zod";
import { computerScreenshotSize } from "../internal/computer-tool.js";
import type { AnthropicComputerTool, AnthropicComputerToolVersion } from "./anthropic-types.js";

/** The beta flag (`betas` of `anthropic.beta.messages.create`) each computer tool version needs. */
export const ANTHROPIC_COMPUTER_BETAS: Readonly<Record<AnthropicComputerToolVersion, string>> = {
  computer_20250124: "computer-use-2025-01-24",
  computer_20251124: "computer-use-2025-11-24",
};

/** Options of {@link toAnthropicComputerTool}. */
export interface AnthropicComputerToolOptions {
  /**
   * The tool version: `computer_20250124` (default; Claude Sonnet 4.5, Haiku 4.5, Opus 4.1, Sonnet
   * 4, Opus 4) or `computer_20251124` (Claude Opus 4.5 and later, Sonnet 4.6; adds `zoom`, which is
   * then enabled).
   */
  version?: AnthropicComputerToolVersion;
}

const optionsSchema = z.object({
  version: z.enum(["computer_20250124", "computer_20251124"]).default("computer_20250124"),
});

/**
 * Declares the `computer` tool of `@agentool/tools-gui` as Anthropic's native computer-use tool,
 * sized to the screenshots the tool returns, so the model's coordinates are the tool's. Send it
 * with `anthropic.beta.messages.create` and the version's beta flag
 * (`ANTHROPIC_COMPUTER_BETAS[version]`); answer its `tool_use` blocks with a dispatcher made with
 * `nativeComputerTool: true`.
 *
 * @param tool - the tool made by `createComputerTool` (named `computer`)
 * @param options - `version` (default `computer_20250124`)
 * @returns the declaration `{ type, name: "computer", display_width_px, display_height_px }`
 * @throws AgentoolError when the tool is not a computer tool, is renamed, or the options are bad
 * @example
 * const declaration = toAnthropicComputerTool(computer, { version: "computer_20251124" });
 * // { type: "computer_20251124", name: "computer", display_width_px: 1280, display_height_px: 800, enable_zoom: true }
 */
export function toAnthropicComputerTool(
  tool: AnyTool,
  options?: AnthropicComputerToolOptions,
): AnthropicComputerTool {
  const { version } = parseOptions("toAnthropicComputerTool", optionsSchema, options);
  const { width, height } = computerScreenshotSize("toAnthropicComputerTool", tool);
  if (tool.name !== "computer") {
    throw new AgentoolError(
      `toAnthropicComputerTool: Anthropic's computer tool is always named "computer", but this tool is named ${JSON.stringify(tool.name)}; keep the default name.`,
    );
  }
  return {
    type: version,
    name: "computer",
    display_width_px: width,
    display_height_px: height,
    ...(version === "computer_20251124" ? { enable_zoom: true } : {}),
  };
}
