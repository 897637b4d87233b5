/** The actions of the `computer` tool (Anthropic's computer-use set). */
export const COMPUTER_ACTIONS = [
  "screenshot",
  "mouse_move",
  "left_click",
  "right_click",
  "middle_click",
  "double_click",
  "triple_click",
  "left_click_drag",
  "left_mouse_down",
  "left_mouse_up",
  "scroll",
  "key",
  "hold_key",
  "type",
  "wait",
  "cursor_position",
  "zoom",
] as const;

/** One action of the `computer` tool. */
export type ComputerAction = (typeof COMPUTER_ACTIONS)[number];

/**
 * The action that reads the focused window's accessibility text, offered only when the display
 * has an accessibility reader (`startXvfbDisplay({ accessibility: true })`). Not one of
 * Anthropic's or OpenAI's actions: their native computer tools never send it.
 */
export const READ_WINDOW_ACTION = "read_window";

/** Every action the `computer` tool can be offered. */
export type ComputerToolAction = ComputerAction | typeof READ_WINDOW_ACTION;
