/** Options of {@link normalizeRelativePath}. */
export interface NormalizeRelativePathOptions {
  /**
   * Absolute forms of the root (e.g. `/home/me/project` and its real path): an absolute path
   * under one of them is accepted and made relative; any other absolute path is refused.
   */
  roots?: readonly string[];
  /** The argument's name, for messages (`path`, `destination`, `cwd`). Default `"path"`. */
  argument?: string;
  /** What the root is called in messages (`workspace`, `repository`). Default `"workspace"`. */
  rootName?: string;
}

/** The outcome of {@link normalizeRelativePath}: the normalised path, or why it is refused. */
export type NormalizedRelativePath =
  | { path: string; problem?: undefined }
  | { path?: undefined; problem: string };

/**
 * Control characters (C0, DEL, C1) and Unicode's invisible direction controls (LRM, RLM, ALM,
 * the embeddings and overrides U+202A–U+202E, the isolates U+2066–U+2069): in a file name they
 * hide or reverse what a person reads (`src/\u202Ets.exe` shows as `src/exe.st`).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
const HIDDEN_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const HIDDEN_CHARACTERS = new RegExp(HIDDEN_CHARACTER.source, "g");

const CHARACTER_NAMES: Readonly<Record<number, string>> = {
  9: "TAB",
  27: "ESCAPE",
  127: "DELETE",
  1564: "ARABIC LETTER MARK",
  8206: "LEFT-TO-RIGHT MARK",
  8207: "RIGHT-TO-LEFT MARK",
  8234: "LEFT-TO-RIGHT EMBEDDING",
  8235: "RIGHT-TO-LEFT EMBEDDING",
  8236: "POP DIRECTIONAL FORMATTING",
  8237: "LEFT-TO-RIGHT OVERRIDE",
  8238: "RIGHT-TO-LEFT OVERRIDE",
  8294: "LEFT-TO-RIGHT ISOLATE",
  8295: "RIGHT-TO-LEFT ISOLATE",
  8296: "FIRST STRONG ISOLATE",
  8297: "POP DIRECTIONAL ISOLATE",
};

function codePoint(code: number): string {
  return `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** The path quoted for a message, every hidden character written as `\uXXXX` (never raw). */
function quotePath(input: string): string {
  return JSON.stringify(input).replace(
    HIDDEN_CHARACTERS,
    (character) => `\\u${character.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`,
  );
}

/**
 * Turns a model's path into a root-relative, `/`-separated path without touching any file
 * system — the first step of every family's confinement (the real-path check comes after):
 * refuses NUL bytes and line breaks, other control characters (C0, DEL, C1) and Unicode's
 * direction controls (U+061C, U+200E/F, U+202A–U+202E, U+2066–U+2069) naming the code point,
 * `~`, drive letters and UNC paths, absolute paths outside the root, and `..` that climbs above
 * the root; turns `\` into `/`; drops `.` and empty segments.
 *
 * @param input - what the model sent
 * @param options - the root's absolute forms, the argument's name, what the root is called
 * @returns `{ path }` (`""` for the root itself) or `{ problem }` naming the argument
 * @example
 * normalizeRelativePath("./src\\..\\docs/a.md", { roots: ["/repo"] }); // { path: "docs/a.md" }
 * normalizeRelativePath("/repo-evil/a", { roots: ["/repo"] }).problem; // "path \"/repo-evil/a\" is an absolute path outside the workspace root."
 */
export function normalizeRelativePath(
  input: string,
  options: NormalizeRelativePathOptions = {},
): NormalizedRelativePath {
  const argument = options.argument ?? "path";
  const rootName = options.rootName ?? "workspace";
  const shown = quotePath(input);
  if (/[\0\r\n]/.test(input))
    return { problem: `${argument} ${shown} contains a NUL byte or a line break.` };
  const hidden = HIDDEN_CHARACTER.exec(input);
  if (hidden !== null) {
    const code = hidden[0].charCodeAt(0);
    const name = CHARACTER_NAMES[code];
    const kind = code >= 0x061c ? "an invisible text-direction control" : "a control character";
    return {
      problem: `${argument} ${shown} contains ${codePoint(code)}${name === undefined ? "" : ` (${name})`}, ${kind}: it hides or reverses what the name shows.`,
    };
  }
  let candidate = input.trim().replace(/\\/g, "/");
  if (candidate === "~" || candidate.startsWith("~/")) {
    return {
      problem: `${argument} ${shown} points into a home directory, outside the ${rootName}.`,
    };
  }
  if (/^[a-zA-Z]:\//.test(candidate) || candidate.startsWith("//")) {
    return { problem: `${argument} ${shown} is an absolute path outside the ${rootName}.` };
  }
  if (candidate.startsWith("/")) {
    const roots = (options.roots ?? []).map((root) => root.replace(/\/+$/, ""));
    const root = roots.find((item) => candidate === item || candidate.startsWith(`${item}/`));
    if (root === undefined) {
      return { problem: `${argument} ${shown} is an absolute path outside the ${rootName} root.` };
    }
    candidate = candidate.slice(root.length);
  }
  const segments: string[] = [];
  for (const segment of candidate.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (segments.length === 0)
        return { problem: `${argument} ${shown} climbs above the ${rootName} root.` };
      segments.pop();
      continue;
    }
    segments.push(segment);
  }
  return { path: segments.join("/") };
}
