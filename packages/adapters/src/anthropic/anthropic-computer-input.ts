import type { ComputerToolInput } from "../internal/computer-tool.js";
import type { AnthropicComputerInput } from "./anthropic-types.js";

/** Actions whose `text` (or, in Anthropic's reference tool, `key`) names modifier keys to hold. */
const HOLDS_MODIFIERS = new Set([
  "left_click",
  "right_click",
  "middle_click",
  "double_click",
  "triple_click",
  "scroll",
]);
const KEY_ACTIONS = new Set(["key", "hold_key"]);

/**
 * Maps the input of Anthropic's native computer tool to the `computer` tool's input: `key` and
 * `hold_key` send their keys as `text` (the tool's `key`); a click's modifier sent as `key` (as
 * Anthropic's reference implementation accepts) becomes `text`. Everything else — coordinates in
 * screenshot pixels, scroll, duration, region — is the same. Anything that is not an object is
 * returned as it is, for the tool to refuse.
 *
 * @param input - a `tool_use` block's `input`
 * @returns the `computer` tool's input
 * @example
 * fromAnthropicComputerInput({ action: "key", text: "ctrl+s" }); // { action: "key", key: "ctrl+s" }
 */
export function fromAnthropicComputerInput(input: unknown): unknown {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return input;
  const mapped: Record<string, unknown> = { ...(input as Record<string, unknown>) };
  const action = mapped.action;
  if (typeof action !== "string") return mapped;
  if (KEY_ACTIONS.has(action) && mapped.key === undefined && mapped.text !== undefined) {
    mapped.key = mapped.text;
    delete mapped.text;
  } else if (HOLDS_MODIFIERS.has(action) && mapped.key !== undefined && mapped.text === undefined) {
    mapped.text = mapped.key;
    delete mapped.key;
  }
  return mapped;
}

/**
 * Maps a `computer` tool input back to the shape of Anthropic's native computer tool (the keys of
 * `key` and `hold_key` as `text`), e.g. to replay a recorded session to Claude.
 *
 * @param input - the `computer` tool's input
 * @returns the same call as Anthropic's `tool_use` input
 * @example
 * toAnthropicComputerInput({ action: "key", key: "Return" }); // { action: "key", text: "Return" }
 */
export function toAnthropicComputerInput(input: ComputerToolInput): AnthropicComputerInput {
  const { key, ...rest } = input;
  if (KEY_ACTIONS.has(input.action) && key !== undefined) return { ...rest, text: key };
  return rest;
}
