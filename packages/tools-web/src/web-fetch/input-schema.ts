import { pagingInputShape } from "@agentool/contract";
import { z } from "zod";

const RENDER_FIELD = z
  .boolean()
  .optional()
  .describe("Run the page's JavaScript in a browser before reading it (slower; HTML only).");

/** The limits the input schema states. */
export interface WebFetchInputLimits {
  /** Characters per page without `limit`. */
  defaultMaxChars: number;
  /** Largest `limit`. */
  maxMaxChars: number;
  /** Feed entries without `max_entries`. */
  defaultFeedEntries: number;
  /** Largest `max_entries`. */
  maxFeedEntries: number;
}

/**
 * The input schema of `web_fetch` with the host's limits in its descriptions; `render` only when
 * the host configured a renderer.
 *
 * @param limits - page size and feed entry limits
 * @param render - whether (and by default) pages are rendered, when a renderer is configured
 * @returns the zod object
 */
export function createWebFetchInputSchema(
  limits: WebFetchInputLimits,
  render?: { byDefault: boolean },
) {
  const schema = z.object({
    url: z.string().describe("Absolute http(s) URL."),
    ...pagingInputShape({
      unit: "character",
      defaultLimit: limits.defaultMaxChars,
      maxLimit: limits.maxMaxChars,
    }),
    raw: z
      .boolean()
      .optional()
      .describe("Return the body as received, unconverted (default false)."),
    max_entries: z
      .number()
      .int()
      .min(1)
      .max(limits.maxFeedEntries)
      .optional()
      .describe(
        `Feeds: entries to list (default ${limits.defaultFeedEntries}, at most ${limits.maxFeedEntries}).`,
      ),
    render: RENDER_FIELD,
  });
  if (render === undefined) return schema.omit({ render: true }) as unknown as typeof schema;
  return schema.extend({
    render: RENDER_FIELD.describe(
      `${RENDER_FIELD.description ?? ""} Default ${render.byDefault ? "true: false reads the page as served, faster" : "false"}.`,
    ),
  });
}
