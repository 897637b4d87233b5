import { z } from "zod";

/** Most actions in one `act` call. */
export const MAX_BROWSER_ACTIONS = 16;

/** Most DOM queries in one `read` call. */
export const MAX_BROWSER_QUERIES = 10;

/** Default lines of one snapshot page. */
export const DEFAULT_SNAPSHOT_LINES = 150;

/** Longest wait action, in ms. */
export const MAX_BROWSER_WAIT_MS = 5_000;

const target = {
  ref: z
    .string()
    .regex(/^[a-z0-9]{1,24}$/i)
    .optional()
    .describe("Element ref from the last snapshot, e.g. e12."),
  selector: z.string().min(1).max(500).optional().describe("CSS selector, when there is no ref."),
};

const action = z
  .object({
    type: z
      .enum(["click", "type", "fill", "select", "key", "scroll", "hover", "wait"])
      .describe("What to do."),
    ...target,
    text: z.string().max(10_000).optional().describe("type: text typed key by key."),
    value: z
      .string()
      .max(10_000)
      .optional()
      .describe("fill: the field's new value; select: the option."),
    key: z
      .string()
      .min(1)
      .max(50)
      .optional()
      .describe("key: e.g. Enter, Tab, ArrowDown, Control+a."),
    dx: z.number().int().min(-20_000).max(20_000).optional().describe("scroll: pixels right."),
    dy: z.number().int().min(-20_000).max(20_000).optional().describe("scroll: pixels down."),
    ms: z.number().int().min(0).max(MAX_BROWSER_WAIT_MS).optional().describe("wait: milliseconds."),
  })
  .strict();

/** The browser tool's input: one `op` and its fields. */
export const browserInputSchema = z
  .object({
    op: z
      .enum(["navigate", "snapshot", "act", "read", "shot", "tabs", "close"])
      .describe("What to do."),
    url: z.string().min(1).max(4_000).optional().describe("navigate: an http(s) URL."),
    go: z.enum(["back", "forward", "reload"]).optional().describe("navigate: instead of url."),
    changes: z
      .boolean()
      .optional()
      .describe("snapshot: only the lines changed since the last snapshot of this tab."),
    markdown: z
      .boolean()
      .optional()
      .describe("snapshot: the page as Markdown instead of the tree."),
    offset: z.number().int().min(1).optional().describe("snapshot: first line (1-based)."),
    limit: z
      .number()
      .int()
      .min(1)
      .max(1_000)
      .optional()
      .describe(`snapshot: lines per page (default ${DEFAULT_SNAPSHOT_LINES}).`),
    actions: z.array(action).min(1).max(MAX_BROWSER_ACTIONS).optional().describe("act: in order."),
    queries: z
      .array(
        z
          .object({
            css: z.string().min(1).max(500).describe("CSS selector."),
            attr: z.string().min(1).max(100).optional().describe("Attribute; default its text."),
          })
          .strict(),
      )
      .min(1)
      .max(MAX_BROWSER_QUERIES)
      .optional()
      .describe("read: DOM queries."),
    ...target,
    full_page: z.boolean().optional().describe("shot: the whole page, not the viewport."),
    tab: z.number().int().min(1).optional().describe("tabs: the tab to switch to or close."),
    tab_action: z.enum(["list", "switch", "close"]).optional().describe("tabs: default list."),
  })
  .strict();

/** The parsed input. */
export type BrowserInput = z.infer<typeof browserInputSchema>;

/** One action. */
export type BrowserAction = z.infer<typeof action>;
