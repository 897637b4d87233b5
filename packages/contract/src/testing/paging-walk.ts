import type { AnyTool } from "../define-tool.js";
import type { NextCallValue } from "../paging.js";
import { isToolResult, type ToolResult } from "../result.js";
import { findMarkers } from "./boundary-rules.js";

/** Most pages the kit follows from one cut sample before it stops (not a violation). */
export const MAX_WALKED_PAGES = 40;

/** One page of a walk: the input that asked for it, its data and its rendered text. */
interface WalkedPage {
  readonly input: Record<string, unknown>;
  readonly data: Record<string, unknown>;
  readonly text: string;
}

/** What a walk needs from the conformance check around it. */
export interface PagingWalkContext {
  /** Runs the tool, never throwing. */
  readonly run: (input: unknown) => Promise<unknown>;
  /** The text a success renders as. */
  readonly render: (result: ToolResult<unknown>) => string;
  /** Records a violation. */
  readonly report: (rule: string, message: string) => void;
  /** Most pages to follow. */
  readonly maxPages?: number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether a marker's value says the same as the input's (arrays compared as JSON). */
function sameValue(carried: NextCallValue | undefined, given: unknown): boolean {
  return JSON.stringify(carried) === JSON.stringify(given);
}

/**
 * The own-tool next calls of a page's text. A page must carry exactly one: two markers that
 * both name the tool leave the model (and `parseNextCall`, which reads the first) guessing.
 */
function ownNextCalls(tool: AnyTool, text: string): Array<Record<string, NextCallValue>> {
  const calls: Array<Record<string, NextCallValue>> = [];
  for (const { next } of findMarkers(text)) {
    if (next?.tool === tool.name && next.args.offset !== undefined) calls.push(next.args);
  }
  return calls;
}

/**
 * Follows a cut sample's markers literally, page after page, as a model would: each next call
 * is exactly the arguments the marker names (nothing kept from the first call). Reports a page
 * with more than one marker naming the tool, a marker that drops or changes an argument of the
 * first call (every argument that shapes the result must be carried: filters, mode, `limit`), a
 * `total` that changes on the way, a `next_offset` that does not move forward, and a next call
 * that fails.
 *
 * @param tool - the tool
 * @param first - the cut sample's input and its (successful, cut) first page
 * @param context - how to run, render and report
 * @returns how many pages were walked
 */
export async function walkPages(
  tool: AnyTool,
  first: { input: unknown; result: ToolResult<unknown> & { success: true } },
  context: PagingWalkContext,
): Promise<number> {
  const original = isRecord(first.input) ? first.input : {};
  const maxPages = context.maxPages ?? MAX_WALKED_PAGES;
  let page: WalkedPage = {
    input: original,
    data: isRecord(first.result.data) ? first.result.data : {},
    text: context.render(first.result),
  };
  const firstTotal = page.data.total;
  for (let walked = 1; walked < maxPages; walked += 1) {
    if (page.data.truncated !== true) return walked;
    const calls = ownNextCalls(tool, page.text);
    if (calls.length !== 1) {
      context.report(
        "marker",
        `page ${walked} must carry exactly one marker naming "call ${tool.name} again with … offset=…", found ${calls.length}`,
      );
      if (calls.length === 0) return walked;
    }
    const next = calls[0] as Record<string, NextCallValue>;
    const dropped = Object.entries(original).filter(
      ([key, value]) => key !== "offset" && !sameValue(next[key], value),
    );
    if (dropped.length > 0) {
      context.report(
        "marker-arguments",
        `page ${walked}'s marker must repeat every argument of the call (${dropped
          .map(([key, value]) => `${key}=${JSON.stringify(value)}`)
          .join(
            ", ",
          )} ${dropped.length === 1 ? "is" : "are"} missing or changed): a model follows it literally`,
      );
      return walked;
    }
    const previousOffset = typeof page.input.offset === "number" ? page.input.offset : 1;
    if (typeof next.offset !== "number" || next.offset <= previousOffset) {
      context.report(
        "marker",
        `page ${walked}'s marker names offset=${String(next.offset)}, which does not move past offset=${previousOffset}`,
      );
      return walked;
    }
    const result = (await context.run(next)) as ToolResult<unknown>;
    if (!isToolResult(result) || !result.success) {
      context.report(
        "marker",
        `page ${walked}'s marker names a call that fails when followed literally (${JSON.stringify(next)}): ${isToolResult(result) && !result.success ? `${result.error.code} ${result.error.message}` : "not a result"}`,
      );
      return walked;
    }
    page = {
      input: next,
      data: isRecord(result.data) ? result.data : {},
      text: context.render(result),
    };
    if (typeof firstTotal === "number" && page.data.total !== firstTotal) {
      context.report(
        "paging-total",
        `page ${walked + 1} says total ${JSON.stringify(page.data.total)} where page 1 said ${firstTotal}: following the marker changed what is listed`,
      );
      return walked + 1;
    }
  }
  return maxPages;
}
