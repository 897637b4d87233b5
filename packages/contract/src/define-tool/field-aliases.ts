import type { z } from "zod";
import { definitionOf, unwrap } from "../internal/normalize-input.js";

type AnySchema = z.core.$ZodType;

/** One step down to the object that holds an alias: a field, and whether it is a list of objects. */
interface AliasStep {
  /** The field name. */
  readonly key: string;
  /** The field is a list: the alias applies in each of its elements. */
  readonly each: boolean;
}

/**
 * One alias of a definition, parsed: where it applies (`[]` for the top level), the alias and
 * the field it renames to.
 *
 * @internal
 */
export interface AliasEntry {
  /** The steps from the input down to the object that holds the alias. */
  readonly steps: readonly AliasStep[];
  /** The name the model sends. */
  readonly alias: string;
  /** The field it means. */
  readonly field: string;
}

const STEP_PATTERN = /^([^.[\]]+)(\[\])?$/;

/**
 * Parses the keys of `aliases`: `"file_path"` (top level) or a path to a nested object,
 * `"edits[].old_string"` (in each element of the list `edits`), `"options.dryRun"`.
 *
 * @param aliases - alias → field, as given to `defineTool`
 * @returns the parsed entries, or a reason when a key is not such a path
 * @internal
 */
export function parseAliases(
  aliases: Readonly<Record<string, string>>,
): { entries: AliasEntry[] } | { error: string } {
  const entries: AliasEntry[] = [];
  for (const [key, field] of Object.entries(aliases)) {
    const parts = key.split(".");
    const alias = parts.pop() ?? "";
    const steps: AliasStep[] = [];
    for (const part of parts) {
      const match = STEP_PATTERN.exec(part);
      if (match === null || match[1] === undefined) {
        return {
          error: `alias ${JSON.stringify(key)} is not a field path like "edits[].old_string"`,
        };
      }
      steps.push({ key: match[1], each: match[2] !== undefined });
    }
    if (alias.length === 0 || alias.includes("[")) {
      return { error: `alias ${JSON.stringify(key)} does not end with a field name` };
    }
    entries.push({ steps, alias, field });
  }
  return { entries };
}

/**
 * The field names of the object an alias applies to, or a reason when its path does not lead to
 * an object of `input`.
 *
 * @internal
 */
export function aliasTargetFields(input: AnySchema, entry: AliasEntry): string[] | string {
  let current = unwrap(input);
  for (const step of entry.steps) {
    const def = definitionOf(current);
    const shape = def.type === "object" ? (current as unknown as z.ZodObject).shape : undefined;
    const next =
      shape !== undefined && Object.hasOwn(shape, step.key) ? shape[step.key] : undefined;
    if (next === undefined) return `${JSON.stringify(step.key)} is not an object field there`;
    current = unwrap(next);
    if (step.each) {
      const listDef = definitionOf(current);
      if (listDef.type !== "array") return `${JSON.stringify(step.key)} is not a list`;
      current = unwrap(listDef.element as AnySchema);
    }
  }
  if (definitionOf(current).type !== "object") return "its path does not lead to an object";
  return Object.keys((current as unknown as z.ZodObject).shape);
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function renameAt(value: unknown, entry: AliasEntry, depth: number): unknown {
  const step = entry.steps[depth];
  if (step === undefined) {
    // A field already given — by the call or by an earlier alias — leaves this alias unknown.
    if (!isPlainRecord(value) || !Object.hasOwn(value, entry.alias)) return value;
    if (Object.hasOwn(value, entry.field)) return value;
    const copy: Record<string, unknown> = { ...value, [entry.field]: value[entry.alias] };
    delete copy[entry.alias];
    return copy;
  }
  if (!isPlainRecord(value) || !Object.hasOwn(value, step.key)) return value;
  const inner = value[step.key];
  let renamed: unknown;
  if (step.each) {
    if (!Array.isArray(inner)) return value;
    let list: unknown[] | undefined;
    inner.forEach((item, index) => {
      const next = renameAt(item, entry, depth + 1);
      if (next !== item) {
        list ??= [...inner];
        list[index] = next;
      }
    });
    renamed = list ?? inner;
  } else {
    renamed = renameAt(inner, entry, depth + 1);
  }
  return renamed === inner ? value : { ...value, [step.key]: renamed };
}

/**
 * Renames every alias the call sent to its field, wherever it applies; returns the same object
 * when nothing changes (no copy on the hot path).
 *
 * @internal
 */
export function applyAliases(entries: readonly AliasEntry[], candidate: object): object {
  let current: unknown = candidate;
  for (const entry of entries) current = renameAt(current, entry, 0);
  return current as object;
}
