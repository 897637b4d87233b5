import {
  formatCountOf,
  formatPageMarker,
  givenCallArguments,
  type NextCallValue,
  pageItems,
} from "@agentool/contract";
import type { DesignLayer, SpecTokens, TokenRecords } from "./layer-spec.js";
import { formatLayer, formatTokens, tokensUsed } from "./render-spec.js";

/**
 * One page of a layout spec's layers, as `design_read` and `svg_read` both return it.
 *
 * @internal
 */
export interface LayerPage {
  /** The layers of this page, in drawing order; `depth` gives the nesting. */
  layers: DesignLayer[];
  /** The tokens this page's layers name. */
  tokens: SpecTokens;
  /** Layers in all. */
  total: number;
  /** The `offset` of the next page, when there is one. */
  next_offset?: number;
  /** Whether layers after this page were left out. */
  truncated: boolean;
  /** The call's arguments besides `offset`, on a cut page: what the next-page marker repeats. */
  call_arguments?: Record<string, NextCallValue>;
}

/**
 * Cuts one page out of a spec's layers, with the tokens the page names and, on a cut page, the
 * call's arguments for the next-page marker. The caller answers an offset past the end first.
 *
 * @param spec - every layer and every token
 * @param request - the call (its `offset` and `limit`; the rest is repeated on a cut page)
 * @param defaultLimit - layers per page when the call gives no `limit`
 * @returns the page's fields, to spread into the tool's data
 */
export function layerPage(
  spec: { layers: readonly DesignLayer[]; tokens: TokenRecords },
  request: { offset?: number | undefined; limit?: number | undefined },
  defaultLimit: number,
): LayerPage {
  const { items, page } = pageItems(spec.layers, {
    offset: request.offset ?? 1,
    limit: request.limit ?? defaultLimit,
  });
  return {
    layers: items,
    tokens: tokensUsed(items, spec.tokens),
    ...page,
    ...(page.next_offset === undefined ? {} : { call_arguments: givenCallArguments(request) }),
  };
}

/** What {@link formatLayerPage} writes besides the page. */
export interface LayerPageText {
  /** The first line, before the count of layers. */
  before: string;
  /** The first line, after the count of layers. */
  after: string;
  /** The line under it when there are no layers at all. */
  empty: string;
  /** The tool's name, for the next-page marker. */
  tool: string;
  /** The arguments the marker repeats when the page has none of its own. */
  args: Record<string, NextCallValue>;
}

/**
 * A page of layers as the model reads it: the heading with the count, one line per layer
 * (indented by depth), the tokens, the notes and, on a cut page, the marker naming the next call.
 *
 * @param data - the page and the reading's notes
 * @param text - the heading's words, the empty line, the tool and its arguments
 * @returns the text
 */
export function formatLayerPage(
  data: LayerPage & { notes: string[] },
  text: LayerPageText,
): string {
  const lines = [`${text.before} ${formatCountOf(data.total, "layer")} ${text.after}`];
  if (data.total === 0) lines.push(text.empty);
  lines.push(...data.layers.map(formatLayer), ...formatTokens(data.tokens));
  if (data.notes.length > 0) lines.push(`notes: ${data.notes.join("; ")}`);
  if (data.next_offset !== undefined) {
    lines.push(
      formatPageMarker({
        tool: text.tool,
        nextOffset: data.next_offset,
        omitted: data.total - data.next_offset + 1,
        unit: "layers",
        args: data.call_arguments ?? text.args,
      }),
    );
  }
  return lines.join("\n");
}
