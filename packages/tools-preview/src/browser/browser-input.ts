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
  ref: z.string().max(24).optional().describe("Ref from the snapshot (e12)."),
  selector: z.string().max(500).optional().describe("CSS selector."),
};

const action = z
  .object({
    type: z
      .enum(["click", "type", "fill", "select", "key", "scroll", "hover", "wait"])
      .describe("Action."),
    ...target,
    text: z.string().optional().describe("type: text."),
    value: z.string().optional().describe("fill, select: value."),
    key: z.string().max(50).optional().describe("key: e.g. Enter."),
    dx: z.number().int().optional().describe("scroll: px."),
    dy: z.number().int().optional().describe("scroll: px."),
    ms: z.number().int().min(0).max(MAX_BROWSER_WAIT_MS).optional().describe("wait: ms."),
  })
  .strict();

/** The browser tool's input: one `op` and its fields. */
export const browserInputSchema = z
  .object({
    op: z
      .enum(["navigate", "snapshot", "act", "read", "shot", "tabs", "close"])
      .describe("What to do."),
    url: z.string().max(4_000).optional().describe("navigate: http(s) URL."),
    go: z.enum(["back", "forward", "reload"]).optional().describe("navigate: instead of url."),
    changes: z.boolean().optional().describe("snapshot: only new lines."),
    markdown: z.boolean().optional().describe("snapshot: as Markdown."),
    find: z.string().max(200).optional().describe("navigate, snapshot: only lines with this text."),
    offset: z.number().int().min(1).optional().describe("snapshot: first line."),
    limit: z.number().int().min(1).max(1_000).optional().describe("snapshot: lines."),
    actions: z.array(action).min(1).max(MAX_BROWSER_ACTIONS).optional().describe("act: in order."),
    queries: z
      .array(
        z
          .object({
            css: z.string().max(500).describe("CSS selector."),
            attr: z.string().max(100).optional().describe("Default: text."),
          })
          .strict(),
      )
      .min(1)
      .max(MAX_BROWSER_QUERIES)
      .optional()
      .describe("read."),
    ...target,
    full_page: z.boolean().optional().describe("shot: whole page."),
    tab: z.number().int().min(1).optional().describe("tabs: number."),
    tab_action: z.enum(["list", "switch", "close"]).optional().describe("tabs: default list."),
  })
  .strict();

/** The parsed input. */
export type BrowserInput = z.infer<typeof browserInputSchema>;

/** One action. */
export type BrowserAction = z.infer<typeof action>;
