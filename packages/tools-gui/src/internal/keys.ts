import { ToolFailureError } from "@agentool/contract";

/** Longest key string accepted, in characters. */
export const MAX_KEY_CHARACTERS = 200;

/** Names models bring from other platforms, mapped to X keysym names (case-insensitive). */
const KEY_ALIASES: Readonly<Record<string, string>> = {
  ctrl: "ctrl",
  control: "ctrl",
  alt: "alt",
  option: "alt",
  shift: "shift",
  super: "super",
  cmd: "super",
  command: "super",
  meta: "super",
  win: "super",
  windows: "super",
  enter: "Return",
  return: "Return",
  esc: "Escape",
  escape: "Escape",
  tab: "Tab",
  space: "space",
  backspace: "BackSpace",
  delete: "Delete",
  del: "Delete",
  insert: "Insert",
  home: "Home",
  end: "End",
  up: "Up",
  down: "Down",
  left: "Left",
  right: "Right",
  pageup: "Page_Up",
  page_up: "Page_Up",
  pagedown: "Page_Down",
  page_down: "Page_Down",
  arrowup: "Up",
  arrowdown: "Down",
  arrowleft: "Left",
  arrowright: "Right",
};

/** Single punctuation characters, as X keysym names. */
const PUNCTUATION: Readonly<Record<string, string>> = {
  "/": "slash",
  "\\": "backslash",
  "-": "minus",
  "=": "equal",
  ".": "period",
  ",": "comma",
  ";": "semicolon",
  "'": "apostrophe",
  "`": "grave",
  "[": "bracketleft",
  "]": "bracketright",
};

const KEYSYM = /^[A-Za-z0-9_]{1,32}$/;

function keysymOf(part: string, whole: string): string {
  const punctuation = PUNCTUATION[part];
  if (punctuation !== undefined) return punctuation;
  const alias = KEY_ALIASES[part.toLowerCase()];
  if (alias !== undefined) return alias;
  if (/^f([1-9]|1[0-9]|2[0-4])$/i.test(part)) return part.toUpperCase();
  if (KEYSYM.test(part)) return part;
  throw new ToolFailureError(
    "INVALID_INPUT",
    `key ${JSON.stringify(whole.slice(0, 60))} has ${JSON.stringify(part.slice(0, 20))}, which is not a key name.`,
    {
      hint: 'Send X key names joined by + for a combination and separated by spaces for a sequence: "Return", "ctrl+s", "ctrl+shift+t", "alt+F4 Escape". To enter text, use the type action.',
    },
  );
}

/**
 * Parses a key string into chords of X keysym names: `+` joins keys pressed together, spaces
 * separate chords pressed one after the other. Common names from other platforms are mapped
 * (`enter` → `Return`, `cmd` → `super`, `pagedown` → `Page_Down`). Anything that is not a key
 * name (shell syntax, quotes, options) is refused with `INVALID_INPUT`.
 *
 * @param text - e.g. `"ctrl+shift+t"` or `"Down Down Return"`
 * @returns the chords, e.g. `[["ctrl", "shift", "t"]]`
 * @throws ToolFailureError (`INVALID_INPUT`) naming the part that is not a key
 */
export function parseKeys(text: string): string[][] {
  const trimmed = text.trim();
  if (trimmed.length === 0) {
    throw new ToolFailureError("INVALID_INPUT", "key is empty.", {
      hint: 'Send a key name such as "Return" or a combination such as "ctrl+s".',
    });
  }
  if (trimmed.length > MAX_KEY_CHARACTERS) {
    throw new ToolFailureError(
      "INVALID_INPUT",
      `key is ${trimmed.length} characters; the limit is ${MAX_KEY_CHARACTERS}.`,
      { hint: "Send fewer keys per call, or use the type action for text." },
    );
  }
  return trimmed.split(/\s+/).map((chord) => {
    // "ctrl++" means ctrl and plus; a lone "+" is the plus key.
    const parts = chord === "+" ? ["plus"] : chord.replace(/\+\+$/, "+plus").split("+");
    return parts.map((part) => (part.length === 0 ? keysymOf("+", text) : keysymOf(part, text)));
  });
}
