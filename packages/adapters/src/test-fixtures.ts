import { type AnyTool, defineTool, fail, ok } from "@agentool/contract";
import { z } from "zod";

/** A one-pixel PNG, base64. */
export const PIXEL_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

/** Repeats text; has an optional field, a bounded integer and an enum. */
export const echoTool = defineTool({
  name: "echo",
  description: "Repeats the text back. Use it to test wiring.",
  input: z.object({
    text: z.string().min(1).describe("What to repeat."),
    times: z.number().int().min(1).max(5).optional().describe("How many times (default 1)."),
    separator: z.enum(["space", "newline"]).optional().describe("What goes between repeats."),
  }),
  annotations: { readOnly: true, idempotent: true },
  execute: ({ text, times, separator }) =>
    ok({
      text: Array.from({ length: times ?? 1 }, () => text).join(
        separator === "newline" ? "\n" : " ",
      ),
    }),
  render: ({ text }) => text,
});

/** Always fails with FILE_NOT_FOUND and a hint. */
export const readNoteTool = defineTool({
  name: "read_note",
  description: "Reads a note by its title.",
  input: z.object({ title: z.string().describe("The note's title.") }),
  annotations: { readOnly: true },
  execute: ({ title }) =>
    fail("FILE_NOT_FOUND", `There is no note titled ${JSON.stringify(title)}.`, {
      hint: "Call list_notes to see the titles.",
    }),
});

/** Renders a text block and an image block. */
export const screenshotTool = defineTool({
  name: "screenshot",
  description: "Takes a screenshot of the preview.",
  input: z.object({}),
  annotations: { readOnly: true },
  execute: () => ok({ width: 1, height: 1 }),
  render: ({ width, height }) => [
    { type: "text", text: `Screenshot ${width}×${height}` },
    { type: "image", data: PIXEL_PNG, mimeType: "image/png" },
  ],
});

/** Reports what its context received. */
export const contextTool = defineTool({
  name: "show_context",
  description: "Shows the ids and metadata the tool received.",
  input: z.object({}),
  execute: (_input, context) =>
    ok({
      tool_call_id: context.toolCallId,
      thread_id: context.threadId,
      metadata: { ...context.metadata },
    }),
});

/** What the slow tool did, for assertions. */
export interface SlowToolState {
  started: number;
  finished: number;
  cancelled: number;
}

/**
 * A slow tool that honours `context.signal`, reporting progress every step.
 *
 * @returns the tool and the state it updates
 */
export function createSlowTool(stepMs = 20, steps = 50): { tool: AnyTool; state: SlowToolState } {
  const state: SlowToolState = { started: 0, finished: 0, cancelled: 0 };
  const tool = defineTool({
    name: "slow_count",
    description: "Counts slowly to a number, reporting progress.",
    input: z.object({ to: z.number().int().min(1).max(steps).describe("Where to stop counting.") }),
    annotations: { readOnly: true },
    timeoutMs: 0,
    execute: async ({ to }, context) => {
      state.started += 1;
      for (let step = 1; step <= to; step += 1) {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, stepMs);
          context.signal.addEventListener(
            "abort",
            () => {
              clearTimeout(timer);
              reject(new Error("cancelled"));
            },
            { once: true },
          );
        }).catch((error: unknown) => {
          state.cancelled += 1;
          throw error;
        });
        context.progress({ message: `counted to ${step}`, completed: step, total: to });
      }
      state.finished += 1;
      return ok({ counted: to });
    },
  });
  return { tool, state };
}

/**
 * A destructive tool that counts how often `execute` ran.
 *
 * @returns the tool and a counter of executions
 */
export function createDeleteTool(): {
  tool: AnyTool;
  executions: { count: number; titles: string[] };
} {
  const executions = { count: 0, titles: [] as string[] };
  const tool = defineTool({
    name: "delete_note",
    description: "Deletes a note for good.",
    input: z.object({ title: z.string().describe("The note's title.") }),
    annotations: { destructive: true },
    execute: ({ title }) => {
      executions.count += 1;
      executions.titles.push(title);
      return ok({ deleted: title });
    },
    render: ({ deleted }) => `Deleted ${deleted}.`,
  });
  return { tool, executions };
}

/**
 * Like tools-web's `web_fetch`: read-only but open-world (it really fetches the URL), tagged
 * `web`. Nothing in it is destructive, so only a `requireApproval` predicate can gate it.
 */
export const webFetchTool = defineTool({
  name: "web_fetch",
  description: "Fetches a web page and returns its text.",
  input: z.object({ url: z.string().describe("The page's http(s) URL.") }),
  annotations: { readOnly: true, openWorld: true },
  tags: ["web"],
  execute: async ({ url }, context) => {
    const response = await fetch(url, { signal: context.signal });
    return ok({ url, status: response.status, text: await response.text() });
  },
  render: ({ status, text }) => `HTTP ${status}\n${text}`,
});

/** A tool with a richer schema: bounds, a default, an optional array and a nested object. */
export const searchTool = defineTool({
  name: "search_notes",
  description: "Searches notes by text, newest first.",
  input: z.object({
    query: z.string().min(2).max(200).describe("Words to look for."),
    limit: z.number().int().min(1).max(50).default(10).describe("How many results at most."),
    tags: z
      .array(z.string().describe("A tag."))
      .max(5)
      .optional()
      .describe("Only notes with all these tags."),
    filter: z
      .object({
        kind: z.enum(["task", "idea", "log"]).describe("The kind of note."),
        pinned: z.boolean().optional().describe("Only pinned notes."),
      })
      .optional()
      .describe("Narrows the search."),
  }),
  annotations: { readOnly: true },
  execute: (input) => ok({ received: input }),
});

/** Every fixture tool that takes no factory, for declaration checks. */
export const declarationTools: readonly AnyTool[] = [
  echoTool,
  readNoteTool,
  screenshotTool,
  contextTool,
  searchTool,
];
