import { type AnyTool, parseOptions } from "@agentool/contract";
import { z } from "zod";
import { computerScreenshotSize } from "../internal/computer-tool.js";
import type { OpenAiComputerTool } from "./open-ai-types.js";

/** Options of {@link toOpenAiComputerTool}. */
export interface OpenAiComputerToolOptions {
  /** What the model is told the screen runs. Default `"linux"`. */
  environment?: OpenAiComputerTool["environment"];
}

const optionsSchema = z.object({
  environment: z.enum(["linux", "ubuntu", "mac", "windows", "browser"]).default("linux"),
});

/**
 * Declares the `computer` tool of `@agentool/tools-gui` as OpenAI's computer-use tool (Responses
 * API `computer_use_preview`), sized to the screenshots the tool returns, so the model's
 * coordinates are the tool's. Answer the `computer_call` items with a dispatcher made with
 * `nativeComputerTool: true`.
 *
 * @param tool - the tool made by `createComputerTool`
 * @param options - `environment` (default `"linux"`)
 * @returns `{ type: "computer_use_preview", display_width, display_height, environment }`
 * @throws AgentoolError when the tool is not a computer tool or the options are bad
 * @example
 * const response = await openai.responses.create({ model: "computer-use-preview", input, tools: [toOpenAiComputerTool(computer)], truncation: "auto" });
 */
export function toOpenAiComputerTool(
  tool: AnyTool,
  options?: OpenAiComputerToolOptions,
): OpenAiComputerTool {
  const { environment } = parseOptions("toOpenAiComputerTool", optionsSchema, options);
  const { width, height } = computerScreenshotSize("toOpenAiComputerTool", tool);
  return {
    type: "computer_use_preview",
    display_width: width,
    display_height: height,
    environment,
  };
}
