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
