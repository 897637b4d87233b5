import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runDemo } from "../run-demo.js";
import type { TranscriptEvent } from "../transcript.js";
import { coreFamily } from "./core.js";
import { CARD_ARTIFACT, designFamily } from "./design.js";
import { filesFamily } from "./files.js";
import { createPreviewFamily } from "./preview.js";

function resultsOf(events: readonly TranscriptEvent[], name: string): string[] {
  return events.flatMap((event) =>
    event.type === "tool_result" && event.name === name ? [event.content] : [],
  );
}

describe("design family", () => {
  it("reads the recorded Summary card frame and the file's tokens, writes the card as HTML and previews it at the frame's width", async () => {
    const shot = join(mkdtempSync(join(tmpdir(), "demo-design-")), "shot.png");
    const run = await runDemo({
      families: [coreFamily, filesFamily, createPreviewFamily(shot), designFamily],
    });
    expect(run.summary.toolErrors).toBe(0);
    expect(run.summary.toolCallsByName).toMatchObject({
      design_read: 1,
      design_tokens: 1,
      write_file: 1,
    });
    const [frame] = resultsOf(run.events, "design_read");
    expect(frame).toContain(
      'frame "Summary card" #1:8 @0,0 448×320 size=fixed/hug column gap=16 pad=24,24,24,24 fill=Surface/Default',
    );
    expect(frame).toContain('text "Total value" #1:12 @224,64 200×24 style=t2 : "€362.00"');
    const [tokens] = resultsOf(run.events, "design_tokens");
    expect(tokens).toContain("--color-brand-primary: #2563eb;");
    expect(resultsOf(run.events, "write_file")[0]).toContain(CARD_ARTIFACT);
    // The preview family's four calls, then the design step's open and eval.
    const preview = resultsOf(run.events, "preview");
    expect(preview).toHaveLength(6);
    expect(preview[4]).toContain(CARD_ARTIFACT);
    expect(preview[5]).toMatch(
      /^Returned \(object\): \{"title":"Order summary","total":"€362\.00","width":448,"buttons":2\}\n/,
    );
  }, 90_000);
});
