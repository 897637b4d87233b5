/**
 * Private-key content detection shared by every family (read_file, grep_search, git_show,
 * git_diff, git_commit). Linear: `indexOf` scans only, no regular expression over the text.
 *
 * A key block is a PEM armour line `-----BEGIN <anything> PRIVATE KEY-----` (RSA, EC, DSA,
 * OPENSSH, ENCRYPTED, plain PKCS#8, …) or `-----BEGIN PGP PRIVATE KEY BLOCK-----`, up to its
 * `-----END … -----` line (or the end of the text when it has none), and a PuTTY key file
 * (`PuTTY-User-Key-File-<version>:`, anywhere in a line), up to its `Private-MAC:` line (or the end of the text).
 */

/** The one-line note that replaces each private-key block. */
export const PRIVATE_KEY_REDACTION = "[private key redacted]";

const BEGIN = "-----BEGIN ";
const DASHES = "-----";
const PUTTY = "PuTTY-User-Key-File-";
const PUTTY_END = "Private-MAC:";
/** Longest label accepted between `BEGIN ` and `-----` (`ENCRYPTED PRIVATE KEY` is 21). */
const MAX_LABEL = 64;

/** A private-key block found in a text: `[start, end)` in UTF-16 code units. */
export interface PrivateKeySpan {
  /** Index of the block's first character (the start of its BEGIN line). */
  start: number;
  /** Index just past the block (past its END line's text; the line break stays outside). */
  end: number;
}

function isPrivateKeyLabel(label: string): boolean {
  return label.endsWith("PRIVATE KEY") || label === "PGP PRIVATE KEY BLOCK";
}

/** The start of the line holding `index`, never before `floor` (so repeated calls stay linear). */
function lineStart(text: string, index: number, floor = 0): number {
  let start = index;
  while (start > floor && text.charCodeAt(start - 1) !== 10) start -= 1;
  return start;
}

function lineEnd(text: string, index: number): number {
  const newline = text.indexOf("\n", index);
  if (newline === -1) return text.length;
  return newline > 0 && text[newline - 1] === "\r" ? newline - 1 : newline;
}

/** The next PEM private-key BEGIN at or after `from`: `[index of BEGIN, index past its dashes]`. */
function nextPemBegin(text: string, from: number): [number, number] | undefined {
  let cursor = from;
  while (true) {
    const begin = text.indexOf(BEGIN, cursor);
    if (begin === -1) return undefined;
    const labelStart = begin + BEGIN.length;
    const close = text.indexOf(DASHES, labelStart);
    if (close !== -1 && close - labelStart <= MAX_LABEL) {
      const label = text.slice(labelStart, close);
      if (!label.includes("\n") && isPrivateKeyLabel(label)) return [begin, close + DASHES.length];
    }
    cursor = labelStart;
  }
}

/** The next PuTTY key header (`PuTTY-User-Key-File-<digits>:`) at or after `from`: its line start. */
function nextPutty(text: string, from: number): number | undefined {
  let cursor = from;
  while (true) {
    const found = text.indexOf(PUTTY, cursor);
    if (found === -1) return undefined;
    let index = found + PUTTY.length;
    while (index < text.length && index - found < PUTTY.length + 4) {
      const code = text.charCodeAt(index);
      if (code < 48 || code > 57) break;
      index += 1;
    }
    if (index > found + PUTTY.length && text[index] === ":") return lineStart(text, found, from);
    cursor = found + PUTTY.length;
  }
}

/**
 * Finds every private-key block in a text, in order (linear in the text's length).
 *
 * @param text - any text (a file page, a diff, grep output)
 * @returns the blocks' spans; a block with no END runs to the end of the text
 * @example
 * findPrivateKeys("a\n-----BEGIN RSA PRIVATE KEY-----\nMII…\n-----END RSA PRIVATE KEY-----\nb");
 * // [{ start: 2, end: 67 }]
 */
export function findPrivateKeys(text: string): PrivateKeySpan[] {
  const spans: PrivateKeySpan[] = [];
  let cursor = 0;
  let pem = nextPemBegin(text, 0);
  let putty = nextPutty(text, 0);
  while (pem !== undefined || putty !== undefined) {
    const pemFirst = pem !== undefined && (putty === undefined || pem[0] <= putty);
    let start: number;
    let end: number;
    if (pemFirst && pem !== undefined) {
      start = lineStart(text, pem[0], cursor);
      const endMarker = text.indexOf("-----END ", pem[1]);
      end = endMarker === -1 ? text.length : lineEnd(text, endMarker);
    } else {
      start = putty as number;
      const mac = text.indexOf(PUTTY_END, start);
      end = mac === -1 ? text.length : lineEnd(text, mac);
    }
    spans.push({ start, end });
    cursor = end;
    if (cursor >= text.length) break;
    if (pem !== undefined && pem[0] < cursor) pem = nextPemBegin(text, cursor);
    if (putty !== undefined && putty < cursor) putty = nextPutty(text, cursor);
  }
  return spans;
}

/**
 * Tells whether a text holds a private key (a PEM `-----BEGIN … PRIVATE KEY-----` line or a
 * PuTTY `PuTTY-User-Key-File-` header). Linear; allocation-free on text without `-----BEGIN `.
 *
 * @param text - any text
 * @returns whether a private-key block starts in it
 * @example
 * containsPrivateKey("-----BEGIN OPENSSH PRIVATE KEY-----\nb3Bl…"); // true
 * containsPrivateKey("-----BEGIN PUBLIC KEY-----"); // false
 */
export function containsPrivateKey(text: string): boolean {
  return nextPemBegin(text, 0) !== undefined || nextPutty(text, 0) !== undefined;
}

/**
 * Replaces each private-key block with the one-line {@link PRIVATE_KEY_REDACTION} note (the
 * text around it, line breaks included, stays as it was). Linear.
 *
 * @param text - any text
 * @returns the text with every key block redacted (the same string when there is none)
 * @example
 * redactPrivateKeys("key:\n-----BEGIN EC PRIVATE KEY-----\nMHc…\n-----END EC PRIVATE KEY-----\n");
 * // "key:\n[private key redacted]\n"
 */
export function redactPrivateKeys(text: string): string {
  const spans = findPrivateKeys(text);
  if (spans.length === 0) return text;
  let result = "";
  let cursor = 0;
  for (const span of spans) {
    result += text.slice(cursor, span.start) + PRIVATE_KEY_REDACTION;
    cursor = span.end;
  }
  return result + text.slice(cursor);
}

/**
 * A line-by-line private-key tracker, for tools that see a file as lines (read_file pages,
 * grep_search matches with context): feed the lines in order and it tells which belong to a key
 * block — from a BEGIN (or PuTTY header) line through its END (or `Private-MAC:`) line; with no
 * END, every following line. Constant work per character.
 *
 * @returns `isKeyLine(line)`: whether this line (the next in order) is part of a key block
 * @example
 * const isKeyLine = createPrivateKeyLineScanner();
 * ["a", "-----BEGIN EC PRIVATE KEY-----", "MHc…", "-----END EC PRIVATE KEY-----", "b"].map(isKeyLine);
 * // [false, true, true, true, false]
 */
export function createPrivateKeyLineScanner(): (line: string) => boolean {
  let inside: "pem" | "putty" | undefined;
  return (line) => {
    if (inside === undefined) {
      if (nextPemBegin(line, 0) !== undefined) inside = "pem";
      else if (nextPutty(line, 0) !== undefined) inside = "putty";
      else return false;
      const begin = inside === "pem" ? line.indexOf(BEGIN) : 0;
      // A whole block on one line (an escaped string in code) closes at once.
      if (inside === "pem" && line.indexOf("-----END ", begin) !== -1) inside = undefined;
      return true;
    }
    if (inside === "pem" ? line.includes("-----END ") : line.includes(PUTTY_END)) {
      inside = undefined;
    }
    return true;
  };
}
