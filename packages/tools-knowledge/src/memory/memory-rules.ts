/**
 * The rules every memory obeys, whatever the backend: key charset and length, content and tag
 * caps, namespace labels.
 */

/** Longest key: 128 characters. */
export const MAX_MEMORY_KEY_CHARACTERS = 128;

/**
 * What a key may hold: letters (any script) and digits, then also `_ . : / -`; it starts with a
 * letter or a digit (so never `.`, `..` or `/…`). Case-sensitive. `/` groups keys for
 * `memory_list`'s prefix, e.g. `user/preferences/editor`.
 */
export const MEMORY_KEY_PATTERN: RegExp = /^[\p{L}\p{N}][\p{L}\p{N}\p{M}_.:/-]*$/u;

/** Default longest content: 10,000 characters (about 2,500 tokens). */
export const DEFAULT_MAX_MEMORY_CONTENT_CHARACTERS = 10_000;

/** Largest content cap a host may configure: 1,000,000 characters. */
export const MAX_MEMORY_CONTENT_CHARACTERS = 1_000_000;

/** Most tags on one memory: 10. */
export const MAX_MEMORY_TAGS = 10;

/** Longest tag: 32 characters. */
export const MAX_MEMORY_TAG_CHARACTERS = 32;

/** What a tag may hold: letters (any script), digits and `_ . : / -`, starting with a letter or digit. */
export const MEMORY_TAG_PATTERN: RegExp = /^[\p{L}\p{N}][\p{L}\p{N}\p{M}_.:/-]*$/u;

/** Most labels in a namespace: 8. */
export const MAX_MEMORY_NAMESPACE_LABELS = 8;

/** Longest namespace label: 200 characters. */
export const MAX_MEMORY_NAMESPACE_LABEL_CHARACTERS = 200;

/**
 * Tells why a key breaks the key rules, or `undefined` when it is a valid key.
 *
 * @param key - a candidate key
 * @returns the problem, worded for the model, or `undefined`
 * @example
 * memoryKeyProblem("user/editor"); // undefined
 * memoryKeyProblem("my key"); // 'key "my key" holds " ": …'
 */
export function memoryKeyProblem(key: string): string | undefined {
  if (key.length === 0) return "key is empty.";
  if (key.length > MAX_MEMORY_KEY_CHARACTERS) {
    return `key is ${key.length} characters long; at most ${MAX_MEMORY_KEY_CHARACTERS} are accepted.`;
  }
  if (MEMORY_KEY_PATTERN.test(key)) return undefined;
  const first = [...key][0] ?? "";
  const where = /^[\p{L}\p{N}]$/u.test(first)
    ? `holds ${JSON.stringify([...key].find((character) => !/^[\p{L}\p{N}\p{M}_.:/-]$/u.test(character)) ?? "")}`
    : `starts with ${JSON.stringify(first)}`;
  return `key ${JSON.stringify(key)} ${where}: a key is letters and digits, then also _ . : / - (e.g. "user/preferences/editor").`;
}

/**
 * Tells why a tag breaks the tag rules, or `undefined` when it is valid.
 *
 * @param tag - a candidate tag (already trimmed)
 * @returns the problem, or `undefined`
 */
export function memoryTagProblem(tag: string): string | undefined {
  if (tag.length === 0) return "a tag is empty.";
  if (tag.length > MAX_MEMORY_TAG_CHARACTERS) {
    return `tag ${JSON.stringify(`${tag.slice(0, 40)}…`)} is ${tag.length} characters long; at most ${MAX_MEMORY_TAG_CHARACTERS} are accepted.`;
  }
  if (MEMORY_TAG_PATTERN.test(tag)) return undefined;
  return `tag ${JSON.stringify(tag)} is not one word: a tag is letters and digits, then also _ . : / - (e.g. "preference", "project:atlas").`;
}

/**
 * Checks a namespace chosen by the host: 1 to {@link MAX_MEMORY_NAMESPACE_LABELS} labels, each a
 * non-empty string of at most {@link MAX_MEMORY_NAMESPACE_LABEL_CHARACTERS} characters without
 * control characters. Backends encode labels as they need (file names, LangGraph labels).
 *
 * @param namespace - the candidate
 * @returns the problem, or `undefined` when it is valid
 */
export function memoryNamespaceProblem(namespace: unknown): string | undefined {
  if (!Array.isArray(namespace)) return "the namespace is not a list of strings.";
  if (namespace.length === 0) return "the namespace is empty (no label).";
  if (namespace.length > MAX_MEMORY_NAMESPACE_LABELS) {
    return `the namespace has ${namespace.length} labels; at most ${MAX_MEMORY_NAMESPACE_LABELS} are accepted.`;
  }
  for (const label of namespace) {
    if (typeof label !== "string") return `namespace label ${String(label)} is not a string.`;
    if (label.length === 0) return "a namespace label is empty.";
    if (label.length > MAX_MEMORY_NAMESPACE_LABEL_CHARACTERS) {
      return `a namespace label is ${label.length} characters long; at most ${MAX_MEMORY_NAMESPACE_LABEL_CHARACTERS} are accepted.`;
    }
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
    if (/[\u0000-\u001f\u007f]/.test(label)) {
      return `namespace label ${JSON.stringify(label)} holds a control character.`;
    }
  }
  return undefined;
}

/**
 * Encodes a namespace label into letters, digits and `-` only: every other character becomes `~`
 * and the hex of its UTF-8 bytes (`.` → `~2e`). Injective, so two labels never share a folder or a
 * LangGraph label; the output is safe as a file name on every file system and as a LangGraph /
 * PostgresStore namespace label (which refuse `.`, `:`, `%`, `_` and `\`).
 *
 * @param label - a valid namespace label
 * @returns its encoded form
 * @example
 * encodeNamespaceLabel("alice@example.com"); // "alice~40example~2ecom"
 */
export function encodeNamespaceLabel(label: string): string {
  let encoded = "";
  for (const character of label) {
    if (/^[A-Za-z0-9-]$/.test(character)) {
      encoded += character;
      continue;
    }
    for (const byte of new TextEncoder().encode(character)) {
      encoded += `~${byte.toString(16).padStart(2, "0")}`;
    }
  }
  return encoded;
}

/**
 * Normalises tags as stored: trimmed, duplicates removed, order kept.
 *
 * @param tags - the tags given
 * @returns the tags to store
 */
export function normalizeMemoryTags(tags: readonly string[] | undefined): string[] {
  return [...new Set((tags ?? []).map((tag) => tag.trim()).filter((tag) => tag.length > 0))];
}
