/** One element of the focused window, as the model gets it (screenshot pixels). */
export interface WindowElement {
  /** Nesting level (0 = a child of the window). */
  depth: number;
  /** The AT-SPI role: "push button", "check box", "text" (a field), "label"… */
  role: string;
  /** The accessible name; may be empty. */
  name: string;
  /** A field's text or a slider's value. */
  value?: string;
  /** Whether `value` was cut short. */
  value_truncated?: boolean;
  /** "focused", "checked", "mixed", "disabled", "selected", "expanded", "collapsed", "pressed", "password". */
  states: string[];
  /** [left, top, right, bottom] in screenshot pixels (right and bottom exclusive, as zoom's region). */
  box?: [number, number, number, number];
  /** The screenshot pixel to click: the box's centre. */
  center?: [number, number];
  /** True when the element lies outside the screen (scrolled away): no box. */
  off_screen?: boolean;
}
