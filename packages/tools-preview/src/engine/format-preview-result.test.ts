import { describe, expect, it } from "vitest";
import { formatPreviewResult } from "./format-preview-result.js";
import type { PreviewToolData } from "./preview-data.js";

const session = {
  path: "game.html",
  state: "open" as const,
  calls: 3,
  idle_timeout_ms: 120_000,
  backend: "chromium",
};
const base = { session, console: [], console_omitted: 0 };
const SESSION_LINE = "session: game.html · open · 3 calls · chromium · closes after 120 s idle";
const QUIET = "console: (nothing since the last call)";

function text(data: PreviewToolData): string {
  const content = formatPreviewResult(data);
  if (typeof content !== "string") throw new Error("expected text");
  return content;
}

describe("formatPreviewResult", () => {
  it("open, act and close: one line each, then the session and the console", () => {
    expect(
      text({
        ...base,
        op: "open",
        title: "Game",
        characters: 12_345,
        width: 800,
        height: 600,
        canvases: 1,
      }),
    ).toBe(
      `Opened game.html (12,345 characters, title "Game"; viewport 800×600; 1 canvas).\n${SESSION_LINE}\n${QUIET}`,
    );
    expect(
      text({ ...base, op: "open", characters: 5, width: 800, height: 600, canvases: 2 }),
    ).toContain("(5 characters; viewport 800×600; 2 canvases)");
    expect(text({ ...base, op: "act", requested: 1, completed: 1 }).split("\n")[0]).toBe(
      "Did 1 of 1 action.",
    );
    expect(
      text({
        ...base,
        op: "act",
        requested: 3,
        completed: 1,
        failed: { index: 1, type: "click #go", message: "no element matches #go" },
      }).split("\n")[0],
    ).toBe(
      "Did 1 of 3 actions; actions[1] (click #go) failed: no element matches #go. The rest were not run — read the DOM to find the right target.",
    );
    expect(
      text({
        ...base,
        op: "close",
        closed: false,
        session: { ...session, calls: 1, state: "closed" },
      }),
    ).toBe(
      `No session was open.\nsession: game.html · closed · 1 call · chromium · closes after 120 s idle\n${QUIET}`,
    );
  });

  it("read: attributes, no match, errors, match counts and the truncation marker", () => {
    const lines = text({
      ...base,
      op: "read",
      answers: [
        { css: "#score", attr: "text", count: 1, values: ["2"], truncated: false },
        { css: "#name", attr: "data-kind", count: 1, values: [null], truncated: false },
        { css: "#none", attr: "text", count: 0, values: [], truncated: false },
        {
          css: "[[",
          attr: "text",
          count: 0,
          values: [],
          truncated: false,
          error: "invalid CSS selector: x",
        },
        {
          css: "li",
          attr: "text",
          count: 7,
          values: ["a", "b"],
          truncated: true,
          omitted_characters: 3_000,
        },
        { css: "p", attr: "text", count: 2, values: ["x", "y"], truncated: false },
      ],
    }).split("\n");
    expect(lines.slice(0, 6)).toEqual([
      '#score: "2"',
      "#name [data-kind]: (absent)",
      "#none: no element matches",
      "[[: invalid CSS selector: x",
      'li (first 2 of 7 matches): "a", "b"',
      expect.stringMatching(/^…\[truncated: 3,000 more characters — query a narrower selector/),
    ]);
    expect(lines[6]).toBe('p (2 matches): "x", "y"');
  });

  it("eval: a value, undefined, null, a cut value and a throw", () => {
    const first = (data: Partial<PreviewToolData>) =>
      text({ ...base, op: "eval", ...data })
        .split("\n")
        .slice(0, 2);
    expect(first({ value_json: "42", value_type: "number" })[0]).toBe("Returned (number): 42");
    expect(first({ value_json: null, value_type: "undefined" })[0]).toBe(
      "Returned undefined (an expression answers its value; a body, what it returns).",
    );
    expect(first({ value_json: null, value_type: "function" })[0]).toBe("Returned function.");
    expect(
      first({
        value_json: "x".repeat(10),
        value_type: "string",
        value_characters: 25,
        value_truncated: true,
      })[1],
    ).toMatch(/^…\[truncated: 15 more characters — return a smaller part of the value/);
    expect(first({ thrown: "TypeError: nope" })[0]).toBe("The code threw: TypeError: nope");
  });

  it("shot: a text block and the PNG as an image block", () => {
    expect(
      formatPreviewResult({
        ...base,
        op: "shot",
        source: "canvas",
        selector: "canvas#game",
        canvases: 2,
        width: 200,
        height: 120,
        bytes: 1_234,
        mime_type: "image/png",
        image_base64: "AAAA",
      }),
    ).toEqual([
      {
        type: "text",
        text: `Shot of the largest canvas (canvas#game, 2 in the document): 200×120 PNG, 1,234 bytes.\n${SESSION_LINE}\n${QUIET}`,
      },
      { type: "image", data: "AAAA", mimeType: "image/png" },
    ]);
  });

  it("console: entries with repeat counts, then the omitted marker", () => {
    const lines = text({
      ...base,
      op: "close",
      closed: true,
      console: [
        { level: "warn", text: "careful", count: 3 },
        { level: "uncaught", text: "boom", count: 1 },
      ],
      console_omitted: 4,
    }).split("\n");
    expect(lines.slice(2)).toEqual([
      "console (since the last call):",
      "[warn] careful ×3",
      "[uncaught] boom",
      expect.stringMatching(
        /^…\[truncated: 4 more entries — log less, or read the state with eval/,
      ),
    ]);
  });
});
