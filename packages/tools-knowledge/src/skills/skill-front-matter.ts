/** The pattern of a skill name: lower-case letters and digits in hyphen-separated words. */
export const SKILL_NAME_PATTERN: RegExp = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Longest skill name: 64 characters. */
export const MAX_SKILL_NAME_CHARACTERS = 64;

/** Longest skill description: 1,024 characters. */
export const MAX_SKILL_DESCRIPTION_CHARACTERS = 1_024;

/** A SKILL.md split into its front matter fields and body. */
export interface ParsedSkillFile {
  /** The `name` field. */
  name: string;
  /** The `description` field, whitespace collapsed to single spaces. */
  description: string;
  /** The text after the closing `---` line. */
  body: string;
  /** The line of the file where the body starts (1-based). */
  bodyStartLine: number;
}

/** The outcome of {@link parseSkillFile}. */
export type SkillFileParse =
  | { ok: true; skill: ParsedSkillFile }
  | {
      ok: false;
      /** `"malformed"` (no or broken front matter, a field missing) or `"invalid_name"`. */
      reason: "malformed" | "invalid_name";
      /** What is wrong, in a sentence. */
      problem: string;
    };

/** Longest front matter read (from the opening to the closing `---`): 64 KiB. */
export const MAX_FRONT_MATTER_CHARACTERS = 65_536;

/**
 * Drops a YAML ` #` comment: everything from the first whitespace run followed by `#`. What
 * `text.replace(/\s+#.*$/, "")` did on one line, in one linear pass (that regex is quadratic on a
 * long run of spaces with no `#`: a 60 KB line blocked the event loop for seconds).
 */
function stripComment(text: string): string {
  for (let index = 1; index < text.length; index += 1) {
    if (text.charCodeAt(index) !== 0x23 || !/\s/.test(text.charAt(index - 1))) continue;
    let start = index - 1;
    while (start > 0 && /\s/.test(text.charAt(start - 1))) start -= 1;
    return text.slice(0, start);
  }
  return text;
}

const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_-]*)[ \t]*:(?:[ \t]+(.*)|[ \t]*)$/;

function unquoteDouble(raw: string): string | undefined {
  try {
    const value: unknown = JSON.parse(raw.replace(/\t/g, "\\t"));
    return typeof value === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A scalar on the key's own line: quoted, or plain (a ` #` comment dropped). */
function inlineScalar(raw: string): string | undefined {
  const text = raw.trim();
  if (text.startsWith('"')) {
    const end = /^"(?:[^"\\]|\\.)*"/.exec(text);
    if (end === null || stripComment(text.slice(end[0].length)).trim() !== "") return undefined;
    return unquoteDouble(end[0]);
  }
  if (text.startsWith("'")) {
    const end = /^'(?:[^']|'')*'/.exec(text);
    if (end === null || stripComment(text.slice(end[0].length)).trim() !== "") return undefined;
    return end[0].slice(1, -1).replace(/''/g, "'");
  }
  return stripComment(text).trim();
}

/**
 * Reads the two fields a skill needs out of YAML front matter — `name` and `description` as
 * plain, single- or double-quoted scalars, plain scalars continued on indented lines, or `|` /
 * `>` block scalars — and ignores every other key (nested maps and lists included). Duplicate
 * keys are refused.
 */
function readFields(lines: readonly string[]): Map<string, string> | string {
  const fields = new Map<string, string>();
  let index = 0;
  while (index < lines.length) {
    const line = lines[index] ?? "";
    index += 1;
    if (line.trim() === "" || line.trimStart().startsWith("#") || /^[ \t]/.test(line)) continue;
    const match = KEY_LINE.exec(line);
    if (match === null) {
      if (line.startsWith("- ")) continue;
      return `the front matter line ${JSON.stringify(line.slice(0, 80))} is not "key: value"`;
    }
    const key = match[1] ?? "";
    const raw = match[2] ?? "";
    // The indented lines that follow belong to this key.
    const continuation: string[] = [];
    while (index < lines.length) {
      const next = lines[index] ?? "";
      if (next.trim() !== "" && !/^[ \t]/.test(next)) break;
      continuation.push(next);
      index += 1;
    }
    if (key !== "name" && key !== "description") continue;
    if (fields.has(key)) return `the front matter has "${key}" twice`;
    const block = /^([|>])([+-]?)[ \t]*(?:#.*)?$/.exec(raw.trim());
    let value: string | undefined;
    if (block !== null) {
      const content = continuation.map((item) => item.trim());
      while (content.length > 0 && content[content.length - 1] === "") content.pop();
      value = block[1] === "|" ? content.join("\n") : content.join(" ");
    } else if (raw.trim() === "") {
      value = continuation
        .map((item) => item.trim())
        .filter((item) => item !== "")
        .join(" ");
    } else {
      const first = raw.trim();
      const more = continuation.map((item) => item.trim()).filter((item) => item !== "");
      value =
        more.length > 0 && !/^["']/.test(first)
          ? inlineScalar([first, ...more].join(" "))
          : inlineScalar(first);
    }
    if (value === undefined) return `the front matter's "${key}" is not a valid quoted string`;
    fields.set(key, value);
  }
  return fields;
}

/**
 * Splits a SKILL.md into its front matter and body and checks the two fields every skill needs:
 * `name` (lower-case letters, digits and hyphens, at most 64 characters) and `description`
 * (non-empty, at most 1,024 characters). The file must start with a `---` line (after an optional
 * BOM) and the front matter end with a `---` (or `...`) line.
 *
 * @param text - the file's text
 * @returns the fields and body, or why the file is not a skill
 * @example
 * parseSkillFile("---\nname: deploy\ndescription: Roll out a service.\n---\n# Steps\n");
 * // { ok: true, skill: { name: "deploy", description: "Roll out a service.", body: "# Steps\n", bodyStartLine: 5 } }
 */
export function parseSkillFile(text: string): SkillFileParse {
  const source = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const lines = source.split("\n").map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
  if ((lines[0] ?? "").trimEnd() !== "---") {
    return {
      ok: false,
      reason: "malformed",
      problem: "SKILL.md does not start with a --- front matter line",
    };
  }
  let end = -1;
  let characters = 0;
  for (let index = 1; index < lines.length; index += 1) {
    characters += (lines[index] ?? "").length + 1;
    if (characters > MAX_FRONT_MATTER_CHARACTERS) {
      return {
        ok: false,
        reason: "malformed",
        problem: `SKILL.md's front matter is over ${MAX_FRONT_MATTER_CHARACTERS} characters; keep it to name, description and a few short keys`,
      };
    }
    const line = (lines[index] ?? "").trimEnd();
    if (line === "---" || line === "...") {
      end = index;
      break;
    }
  }
  if (end === -1) {
    return {
      ok: false,
      reason: "malformed",
      problem: "SKILL.md's front matter has no closing --- line",
    };
  }
  const fields = readFields(lines.slice(1, end));
  if (typeof fields === "string") return { ok: false, reason: "malformed", problem: fields };
  const name = fields.get("name")?.trim();
  const description = fields.get("description")?.replace(/\s+/g, " ").trim();
  if (name === undefined || name === "") {
    return { ok: false, reason: "malformed", problem: "the front matter has no name" };
  }
  if (description === undefined || description === "") {
    return { ok: false, reason: "malformed", problem: "the front matter has no description" };
  }
  if (name.length > MAX_SKILL_NAME_CHARACTERS || !SKILL_NAME_PATTERN.test(name)) {
    return {
      ok: false,
      reason: "invalid_name",
      problem: `the name ${JSON.stringify(name.slice(0, 80))} is not lower-case letters, digits and hyphens (at most ${MAX_SKILL_NAME_CHARACTERS} characters)`,
    };
  }
  if (description.length > MAX_SKILL_DESCRIPTION_CHARACTERS) {
    return {
      ok: false,
      reason: "malformed",
      problem: `the description is ${description.length} characters; at most ${MAX_SKILL_DESCRIPTION_CHARACTERS} are allowed`,
    };
  }
  // The body starts on the line after the closing ---: find its offset in the original text.
  let offset = text.length - source.length;
  for (let index = 0; index <= end; index += 1) {
    const next = text.indexOf("\n", offset);
    offset = next === -1 ? text.length : next + 1;
  }
  return {
    ok: true,
    skill: { name, description, body: text.slice(offset), bodyStartLine: end + 2 },
  };
}
