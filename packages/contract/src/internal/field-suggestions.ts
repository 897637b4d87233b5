import type { z } from "zod";
import { editDistance } from "../authoring/closest-names.js";
import { definitionOf, unwrap } from "./normalize-input.js";

type AnySchema = z.core.$ZodType;

/**
 * Field names that models trained on other toolsets send, and what they mean here. Used only to
 * suggest ("did you mean"); a tool accepts an alias silently only when it lists it in its own
 * `aliases`. The first target that the tool really has wins.
 */
export const WELL_KNOWN_FIELD_ALIASES: Readonly<Record<string, readonly string[]>> = {
  file_path: ["path"],
  filepath: ["path"],
  file: ["path"],
  path: ["files", "path_prefix", "prefix", "source"],
  paths: ["files"],
  filename: ["path"],
  dir: ["path"],
  directory: ["path"],
  dir_path: ["path"],
  target_file: ["path"],
  target: ["destination", "path", "url", "revision", "ref"],
  absolute_path: ["path"],
  relative_path: ["path"],
  old_string: ["old_text"],
  new_string: ["new_text"],
  old_str: ["old_text"],
  new_str: ["new_text"],
  search: ["old_text", "pattern", "query"],
  replace: ["new_text"],
  replacement: ["new_text"],
  replace_all: ["all", "allow_multiple"],
  head_limit: ["limit"],
  max_length: ["limit"],
  max_results: ["limit"],
  max_count: ["limit"],
  num_results: ["limit"],
  count: ["limit"],
  max_lines: ["limit"],
  lines: ["limit"],
  start_line: ["offset"],
  line_start: ["offset"],
  start_index: ["offset"],
  end_line: ["limit"],
  line_end: ["limit"],
  line_offset: ["offset"],
  start: ["offset"],
  skip: ["offset"],
  page: ["offset"],
  timeout: ["timeout_seconds", "timeout_ms"],
  timeout_ms: ["timeout_seconds"],
  recursive: ["depth", "recursive"],
  cmd: ["command"],
  args: ["command", "arguments"],
  cwd: ["working_directory", "cwd"],
  regex: ["pattern"],
  glob: ["pattern", "glob"],
  include: ["glob", "include"],
  q: ["query"],
  search_query: ["query"],
  text: ["content", "thought", "message", "query", "pattern"],
  contents: ["content"],
  content: ["step", "text", "message"],
  task: ["step"],
  todo: ["step"],
  todos: ["plan"],
  body: ["content"],
  message: ["message", "question"],
  msg: ["message", "text", "content"],
  question: ["query", "message"],
  choices: ["options"],
  url: ["url"],
  uri: ["url"],
  link: ["url"],
  revision: ["ref"],
  commit: ["ref"],
  sha: ["ref", "revision", "expected_sha"],
  branch: ["name", "ref"],
  max_count_commits: ["limit"],
  case_sensitive: ["case_sensitive", "ignore_case"],
  "-i": ["ignore_case"],
  context: ["context_lines"],
  "-C": ["context_lines"],
  "-A": ["context_lines"],
  "-B": ["context_lines"],
  output_mode: ["mode"],
};

function isWellKnown(name: string): boolean {
  return Object.hasOwn(WELL_KNOWN_FIELD_ALIASES, name);
}

function normalise(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/[-\s]+/g, "_")
    .toLowerCase();
}

/**
 * The known field closest to an unknown one: a well-known alias first, then the same name in
 * snake_case, then the nearest name by edit distance (or one that contains the other).
 *
 * @internal
 */
export function suggestField(unknown: string, known: readonly string[]): string | undefined {
  if (known.length === 0) return undefined;
  const snake = normalise(unknown);
  if (snake !== unknown && known.includes(snake)) return snake;
  for (const key of [unknown, snake]) {
    const targets = Object.hasOwn(WELL_KNOWN_FIELD_ALIASES, key)
      ? (WELL_KNOWN_FIELD_ALIASES[key] ?? [])
      : [];
    for (const target of targets) {
      if (known.includes(target) && target !== unknown) return target;
    }
  }
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    const distance = editDistance(snake, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  const allowed = Math.max(2, Math.floor(snake.length / 3));
  if (best !== undefined && bestDistance <= allowed) return best;
  // A name of the table means one of its targets; a field that merely contains it (`text` in
  // `context_lines`) would be a guess, so none is better.
  if (isWellKnown(unknown) || isWellKnown(snake)) return undefined;
  const containing = known.find(
    (candidate) =>
      (snake.length >= 3 && candidate.includes(snake)) ||
      (candidate.length >= 3 && snake.includes(candidate)),
  );
  return containing;
}

/**
 * The field names of the object schema found at `path` inside `schema` (through optional,
 * nullable, default and array wrappers), or `[]` when there is none.
 *
 * @internal
 */
export function knownFieldsAt(schema: AnySchema, path: readonly PropertyKey[]): string[] {
  let current: AnySchema | undefined = unwrap(schema);
  for (const segment of path) {
    if (current === undefined) return [];
    const def = definitionOf(current);
    if (def.type === "array" && typeof segment === "number") {
      current = unwrap(def.element as AnySchema);
    } else if (def.type === "object" && typeof segment === "string") {
      const shape = (current as unknown as z.ZodObject).shape as Record<string, AnySchema>;
      const next = Object.hasOwn(shape, segment) ? shape[segment] : undefined;
      current = next === undefined ? undefined : unwrap(next);
    } else {
      return [];
    }
  }
  if (current === undefined) return [];
  const def = definitionOf(current);
  if (def.type !== "object") return [];
  return Object.keys((current as unknown as z.ZodObject).shape);
}

/** Unknown keys found below the top level: where, and which. */
export interface UnknownNestedFields {
  /** The path of the object that holds them. */
  path: Array<string | number>;
  /** The unknown keys. */
  keys: string[];
}

/**
 * Finds keys of nested objects in `value` that their object schema does not declare. zod strips
 * such keys from non-strict nested objects; the JSON Schema given to providers forbids them
 * (`additionalProperties: false`), so `run` refuses them as it refuses unknown top-level keys.
 * Walks only plain objects and arrays under object schemas (records and unions are left alone).
 *
 * @internal
 */
export function findUnknownNestedFields(schema: AnySchema, value: unknown): UnknownNestedFields[] {
  const found: UnknownNestedFields[] = [];
  const walk = (current: AnySchema, item: unknown, path: Array<string | number>, depth: number) => {
    if (depth > 32 || typeof item !== "object" || item === null) return;
    const inner = unwrap(current);
    const def = definitionOf(inner);
    if (def.type === "array" && Array.isArray(item)) {
      const element = def.element as AnySchema;
      item.forEach((entry, index) => {
        walk(element, entry, [...path, index], depth + 1);
      });
      return;
    }
    if (def.type !== "object" || Array.isArray(item)) return;
    const shape = (inner as unknown as z.ZodObject).shape as Record<string, AnySchema>;
    const unknownKeys: string[] = [];
    for (const [key, entry] of Object.entries(item)) {
      const field = Object.hasOwn(shape, key) ? shape[key] : undefined;
      if (field === undefined) {
        unknownKeys.push(key);
        continue;
      }
      if (typeof entry === "object" && entry !== null)
        walk(field, entry, [...path, key], depth + 1);
    }
    if (unknownKeys.length > 0 && path.length > 0) found.push({ path, keys: unknownKeys });
  };
  walk(schema, value, [], 0);
  return found;
}
