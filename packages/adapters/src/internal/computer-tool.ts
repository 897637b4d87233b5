import { AgentoolError, type AnyTool } from "@agentool/contract";

/** The tag of a computer-use tool (`createComputerTool` of `@agentool/tools-gui`). */
export const COMPUTER_TAG = "gui:computer";

const SIZE_TAG = /^gui:screenshot-size:(\d{1,5})x(\d{1,5})$/;

/**
 * One call of the `computer` tool as its schema takes it (Anthropic's computer-use fields).
 * Coordinates are screenshot pixels.
 */
export interface ComputerToolInput {
  action: string;
  coordinate?: [number, number];
  start_coordinate?: [number, number];
  text?: string;
  key?: string;
  scroll_direction?: "up" | "down" | "left" | "right";
  scroll_amount?: number;
  duration?: number;
  region?: [number, number, number, number];
}

/**
 * The screenshot size a computer tool states in its `gui:screenshot-size:<w>x<h>` tag: the
 * space of every coordinate it takes and returns.
 *
 * @param owner - the public function's name, for the error message
 * @param tool - the tool
 * @returns its screenshot width and height
 * @throws AgentoolError when the tool is not a computer tool or states no size
 */
export function computerScreenshotSize(
  owner: string,
  tool: AnyTool,
): { width: number; height: number } {
  if (!tool.tags.includes(COMPUTER_TAG)) {
    throw new AgentoolError(
      `${owner}: ${JSON.stringify(tool.name)} is not a computer tool (no "${COMPUTER_TAG}" tag); pass the tool made by createComputerTool from @agentool/tools-gui.`,
    );
  }
  for (const tag of tool.tags) {
    const match = SIZE_TAG.exec(tag);
    if (match !== null) return { width: Number(match[1]), height: Number(match[2]) };
  }
  throw new AgentoolError(
    `${owner}: ${JSON.stringify(tool.name)} states no screenshot size (a "gui:screenshot-size:<width>x<height>" tag).`,
  );
}

/**
 * The computer tool in a list, when `enabled`; checks its size tag at once.
 *
 * @param owner - the public function's name, for error messages
 * @param tools - the tools
 * @param enabled - the host's opt-in (`nativeComputerTool`)
 * @returns the computer tool, or undefined when not enabled
 * @throws AgentoolError when enabled and the list has no computer tool, or two
 */
export function findComputerTool(
  owner: string,
  tools: readonly AnyTool[],
  enabled: boolean,
): AnyTool | undefined {
  if (!enabled) return undefined;
  const found = tools.filter((tool) => tool.tags.includes(COMPUTER_TAG));
  if (found.length !== 1) {
    throw new AgentoolError(
      `${owner}: nativeComputerTool needs exactly one computer tool (tagged "${COMPUTER_TAG}") among the tools; found ${found.length}.`,
    );
  }
  const [tool] = found as [AnyTool];
  computerScreenshotSize(owner, tool);
  return tool;
}

/**
 * Takes `nativeComputerTool` out of a dispatcher's options (the shared options schema does not
 * know it) and checks it is a boolean.
 *
 * @param owner - the public function's name
 * @param options - the dispatcher's options
 * @returns the flag and the other options
 * @throws AgentoolError when the flag is not a boolean
 */
export function splitComputerOption<Options extends object>(
  owner: string,
  options: (Options & { nativeComputerTool?: boolean }) | undefined,
): { native: boolean; rest: Options | undefined } {
  if (options === undefined || options === null || typeof options !== "object") {
    return { native: false, rest: options as Options | undefined };
  }
  const { nativeComputerTool, ...rest } = options;
  if (nativeComputerTool !== undefined && typeof nativeComputerTool !== "boolean") {
    throw new AgentoolError(`${owner}: nativeComputerTool must be a boolean.`);
  }
  return { native: nativeComputerTool === true, rest: rest as Options };
}
