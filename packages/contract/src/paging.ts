import { z } from "zod";
import { formatCount } from "./authoring/text.js";
import { fail, type ToolFailure } from "./result.js";
import { formatTruncationMarker, singularUnit } from "./truncate.js";

/**
 * The paging facts every tool whose output can be cut puts in its `data` (snake_case, as
 * everything that crosses the tool boundary).
 *
 * - `total`: how many items there are in all (exact), or
 * - `total_at_least`: a lower bound, when counting all would cost a full scan;
 * - `next_offset`: the `offset` of the next page, absent on the last page;
 * - `truncated`: whether anything after this page was left out.
 */
export interface PageInfo {
  /** Items in all (exact). Absent when only a lower bound is known. */
  total?: number;
  /** A lower bound on the items in all, when an exact count would cost a full scan. */
  total_at_least?: number;
  /** The 1-based `offset` that fetches the next page; absent on the last page. */
  next_offset?: number;
  /** Whether items after this page were left out. */
  truncated: boolean;
}

/**
 * A value that can appear in a next-call instruction: a string, number or boolean, or a list of
 * strings or numbers (written as a JSON array, e.g. `tags=["ops","db"]`) so a filter that is a
 * list is carried like any other.
 */
export type NextCallValue = string | number | boolean | readonly (string | number)[];

/**
 * Writes the instruction for the call that gets the rest, naming the tool and the arguments to
 * change: `call read_file again with offset=801`, `call git_diff again with path="a.ts", offset=3`.
 * Strings are JSON-quoted; numbers and booleans written as they are.
 *
 * @param tool - the tool to call (usually the tool itself)
 * @param args - the arguments to set on that call, in the order to show them
 * @returns the instruction, without the marker around it
 * @example
 * formatNextCall("read_file", { offset: 801 }); // "call read_file again with offset=801"
 */
export function formatNextCall(
  tool: string,
  args: Readonly<Record<string, NextCallValue>>,
): string {
  const parts = Object.entries(args).map(
    ([key, value]) =>
      `${key}=${typeof value === "string" || Array.isArray(value) ? JSON.stringify(value) : String(value)}`,
  );
  return parts.length === 0 ? `call ${tool} again` : `call ${tool} again with ${parts.join(", ")}`;
}

/**
 * The pattern of an instruction written by {@link formatNextCall} inside a marker; group 1 is the
 * tool name, group 2 the `key=value` list.
 */
export const NEXT_CALL_PATTERN: RegExp =
  /call ([a-z][a-z0-9_]*) again(?: with ((?:[^\]"[]|"(?:[^"\\]|\\.)*"|\[(?:"(?:[^"\\]|\\.)*"|[^\]"])*\])+))?/;

/**
 * Reads the arguments back out of an instruction written by {@link formatNextCall}.
 *
 * @param text - text that contains a next-call instruction (e.g. a whole rendered result)
 * @returns the tool and arguments of the first instruction found, or `undefined`
 * @example
 * parseNextCall("…[truncated: 3 more lines — call read_file again with offset=801]");
 * // { tool: "read_file", args: { offset: 801 } }
 */
export function parseNextCall(
  text: string,
): { tool: string; args: Record<string, NextCallValue> } | undefined {
  const match = NEXT_CALL_PATTERN.exec(text);
  if (match === null || match[1] === undefined) return undefined;
  const args: Record<string, NextCallValue> = {};
  const list = match[2] ?? "";
  const pair =
    /([a-z][a-z0-9_]*)=("(?:[^"\\]|\\.)*"|\[(?:"(?:[^"\\]|\\.)*"|[^\]"])*\]|-?\d+(?:\.\d+)?|true|false)/g;
  for (let found = pair.exec(list); found !== null; found = pair.exec(list)) {
    const [, key, raw] = found;
    if (key === undefined || raw === undefined) continue;
    args[key] =
      raw.startsWith('"') || raw.startsWith("[")
        ? (JSON.parse(raw) as string | Array<string | number>)
        : raw === "true"
          ? true
          : raw === "false"
            ? false
            : Number(raw);
  }
  return { tool: match[1], args };
}

/** What {@link formatPageMarker} needs. */
export interface PageMarkerOptions {
  /** The tool that serves the next page. */
  tool: string;
  /** The `offset` of the next page. */
  nextOffset: number;
  /** How many items were left out after this page (exact, or a lower bound with `atLeast`). */
  omitted: number;
  /** The unit, plural: `"lines"`, `"entries"`, `"matches"`, `"commits"`, `"characters"`… */
  unit: string;
  /** `omitted` is a lower bound: the marker says "at least". */
  atLeast?: boolean;
  /** Other arguments the next call must carry besides `offset` (shown before it). */
  args?: Readonly<Record<string, NextCallValue>>;
}

/**
 * Writes the one marker for a cut page; it names the exact next call.
 *
 * @param options - the tool, the next offset, how much was left out
 * @returns e.g. `…[truncated: 1,204 more lines — call read_file again with offset=801]`
 * @example
 * formatPageMarker({ tool: "read_file", nextOffset: 801, omitted: 1204, unit: "lines" });
 */
export function formatPageMarker(options: PageMarkerOptions): string {
  return formatTruncationMarker({
    omitted: options.omitted,
    unit: options.unit,
    atLeast: options.atLeast,
    next: formatNextCall(options.tool, { ...(options.args ?? {}), offset: options.nextOffset }),
  });
}

/** Where a page starts and how long it is: the `offset` / `limit` a tool received. */
export interface PageRequest {
  /** 1-based position of the first item (default 1). */
  offset?: number;
  /** Most items on the page. */
  limit: number;
}

/** The result of {@link pageItems}. */
export interface ItemPage<T> {
  /** The items on this page. */
  items: T[];
  /** The paging facts to spread into the tool's `data` (`total` is always exact here). */
  page: PageInfo & { total: number };
}

/**
 * Cuts one page out of a complete list: `offset` is 1-based, `limit` the page size.
 *
 * @param items - every item, in their stable order
 * @param request - `offset` (default 1) and `limit`
 * @returns the page's items and its {@link PageInfo} (`total` exact)
 * @example
 * const { items, page } = pageItems(entries, { offset: 501, limit: 500 });
 * return ok({ entries: items, ...page });
 */
export function pageItems<T>(items: readonly T[], request: PageRequest): ItemPage<T> {
  const offset = Math.max(1, request.offset ?? 1);
  const start = offset - 1;
  const end = Math.min(items.length, start + Math.max(0, request.limit));
  const page: PageInfo & { total: number } = { total: items.length, truncated: end < items.length };
  if (end < items.length) page.next_offset = end + 1;
  return { items: items.slice(start, end), page };
}

/** What {@link offsetPastEnd} needs. */
export interface OffsetPastEndOptions {
  /** The tool that was called. */
  tool: string;
  /** The offset it was given. */
  offset: number;
  /** How many items there are (exact). */
  total: number;
  /** The unit, plural (`"lines"`, `"entries"`…). */
  unit: string;
}

/**
 * Tells whether an `offset` lies past the end of `total` items. An empty list accepts
 * `offset: 1` (an empty first page); any other offset beyond the last item is past the end.
 *
 * @param offset - the 1-based offset asked for
 * @param total - how many items there are
 * @returns `true` when the tool should answer with {@link offsetPastEnd}
 */
export function isOffsetPastEnd(offset: number, total: number): boolean {
  return offset > 1 && offset > total;
}

/**
 * The one failure for an `offset` past the end (every family answers this mistake the same
 * way: `INVALID_INPUT`, naming the total and the last valid offset).
 *
 * @param options - the tool, the offset given and the total
 * @returns an `INVALID_INPUT` failure
 * @example
 * if (isOffsetPastEnd(offset, total)) return offsetPastEnd({ tool: "list_directory", offset, total, unit: "entries" });
 */
export function offsetPastEnd(options: OffsetPastEndOptions): ToolFailure {
  const count = formatCount(options.total);
  return fail(
    "INVALID_INPUT",
    `offset=${options.offset} is past the end: there ${options.total === 1 ? `is ${count} ${singularUnit(options.unit)}` : `are ${count} ${options.unit}`} in all.`,
    {
      hint:
        options.total === 0
          ? `There is nothing to page through; call ${options.tool} without offset.`
          : `Call ${options.tool} again with an offset between 1 and ${options.total}.`,
    },
  );
}

/** What {@link pagingInputShape} takes. */
export interface PagingInputOptions {
  /** The unit of one item, singular, for the descriptions (`"line"`, `"entry"`, `"match"`…). */
  unit: string;
  /** The plural of `unit` when it is not `unit + "s"` (`"entries"`, `"matches"`). */
  units?: string;
  /** Page size when `limit` is not given. */
  defaultLimit: number;
  /** Largest `limit` accepted. */
  maxLimit: number;
  /** Largest `offset` accepted. Default: unbounded. */
  maxOffset?: number;
  /** The whole `offset` description, when the tool pages more than one kind of item. */
  offsetDescription?: string;
  /** The whole `limit` description, when the tool pages more than one kind of item. */
  limitDescription?: string;
}

/**
 * The `offset` and `limit` input fields, described the same way in every tool (a tool that pages
 * two kinds of item, such as files or patch lines, words both descriptions itself). Spread it into
 * a tool's `z.object({...})`.
 *
 * @param options - the unit and the limits
 * @returns `{ offset, limit }` zod fields (both optional)
 * @example
 * input: z.object({ path: z.string().describe("…"), ...pagingInputShape({ unit: "entry", defaultLimit: 500, maxLimit: 2000 }) })
 */
export function pagingInputShape(options: PagingInputOptions): {
  offset: z.ZodOptional<z.ZodNumber>;
  limit: z.ZodOptional<z.ZodNumber>;
} {
  const offset = z.number().int().min(1);
  return {
    offset: (options.maxOffset === undefined ? offset : offset.max(options.maxOffset))
      .optional()
      .describe(
        options.offsetDescription ??
          `1-based position of the first ${options.unit} to return (default 1). A cut result ends with a marker naming the next call's offset.`,
      ),
    limit: z
      .number()
      .int()
      .min(1)
      .max(options.maxLimit)
      .optional()
      .describe(
        options.limitDescription ??
          `Most ${options.units ?? `${options.unit}s`} to return (default ${options.defaultLimit}, at most ${options.maxLimit}).`,
      ),
  };
}
