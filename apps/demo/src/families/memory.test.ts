import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runDemo } from "../run-demo.js";
import type { TranscriptEvent } from "../transcript.js";
import { coreFamily } from "./core.js";
import {
  DEFAULT_DEMO_MEMORY_DIRECTORY,
  memoryFamily,
  REPORT_PREFERENCE,
  REPORT_PREFERENCE_KEY,
} from "./memory.js";

function resultOf(events: readonly TranscriptEvent[], name: string): string {
  const call = events.find((event) => event.type === "tool_call" && event.name === name);
  const id = call?.type === "tool_call" ? call.toolCallId : undefined;
  const result = events.find((event) => event.type === "tool_result" && event.toolCallId === id);
  return result?.type === "tool_result" ? result.content : "";
}

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function temporaryFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), "agentool-demo-memory-test-"));
  folders.push(folder);
  return folder;
}

/** Every memory file under a folder (the file store's `<hash>.<version>.json` names). */
function memoryFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: "utf8" }).filter((name) =>
    name.endsWith(".json"),
  );
}

describe("the memory family", () => {
  it("saves a preference in one run and recalls it in a second run over the same folder", async () => {
    const memoryDirectory = temporaryFolder();

    const first = await runDemo({ families: [coreFamily, memoryFamily], memoryDirectory });
    expect(first.summary.failure).toBeUndefined();
    expect(first.summary.toolErrors).toBe(0);
    expect(first.summary.toolCallsByName).toMatchObject({ memory_search: 1, memory_write: 1 });
    // Nothing saved yet: the search says so, and the write creates the key.
    expect(resultOf(first.events, "memory_search")).toContain(
      'No memory has been saved with memory_write yet, so nothing matches "report style preference".',
    );
    const firstWrite = resultOf(first.events, "memory_write");
    expect(firstWrite).toContain(`Saved a new memory "${REPORT_PREFERENCE_KEY}"`);
    expect(firstWrite).toContain("tags: preference, report");
    const savedAt = /at (\d{4}-\d\d-\d\dT[\d:.]+Z)\./.exec(firstWrite)?.[1];
    expect(savedAt).toBeDefined();

    // The run is over (its workspace deleted); the memory folder holds one file, in the
    // namespace the host chose ("user" / "demo-user"), with the preference in it.
    const files = memoryFiles(memoryDirectory);
    expect(files).toHaveLength(1);
    expect(files[0]?.startsWith(join("user", "demo-user"))).toBe(true);
    const stored = JSON.parse(readFileSync(join(memoryDirectory, files[0] as string), "utf8"));
    expect(stored).toMatchObject({ key: REPORT_PREFERENCE_KEY, content: REPORT_PREFERENCE });

    // A second run, with new tools and a new file store over the same folder, recalls it.
    const second = await runDemo({ families: [coreFamily, memoryFamily], memoryDirectory });
    expect(second.summary.toolErrors).toBe(0);
    const recalled = resultOf(second.events, "memory_search");
    expect(recalled).toContain('1 memory matches "report style preference" tagged preference');
    expect(recalled).toContain(`1. ${REPORT_PREFERENCE_KEY} (tags: preference, report)`);
    expect(recalled).toContain(REPORT_PREFERENCE);
    // Writing it again replaces the memory and keeps when it was first written.
    const secondWrite = resultOf(second.events, "memory_write");
    expect(secondWrite).toContain(`Replaced the memory "${REPORT_PREFERENCE_KEY}"`);
    expect(secondWrite).toContain(`first written ${savedAt}`);
    expect(memoryFiles(memoryDirectory)).toHaveLength(1);
  });

  it("keeps its default folder inside the demo app, outside the workspace that is deleted", () => {
    expect(DEFAULT_DEMO_MEMORY_DIRECTORY).toMatch(/apps[/\\]demo[/\\]\.memory[/\\]?$/);
    expect(existsSync(join(DEFAULT_DEMO_MEMORY_DIRECTORY, "..", "package.json"))).toBe(true);
  });
});
