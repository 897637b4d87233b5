import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Progress } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  descendants,
  isRunning,
  requireBuiltCli,
  startStdioSession,
  temporaryDirectory,
  waitUntil,
} from "./test-support/spawn-server.js";

let corpus: ReturnType<typeof temporaryDirectory>;

// Unicode words defeat ripgrep's literal and ASCII fast paths; with the counted repetition of
// word-boundary groups below a scan of this corpus takes ripgrep well over ten seconds.
const WORDS =
  "αλφα βήτα γάμμα δέλτα έψιλον ζήτα ήτα θήτα ιώτα κάππα λάμδα μυ νυ ξι όμικρον πι ρο σίγμα ταυ ύψιλον щука ёлка ñandú".split(
    " ",
  );
const EXPENSIVE_PATTERN = String.raw`(\b\w+\b\s){1,30}\b\w{4}\d{5}\b\s\b\w\b`;

beforeAll(() => {
  requireBuiltCli();
  corpus = temporaryDirectory();
  const line = Array.from(
    { length: 2_000 },
    (_, index) => `${WORDS[(index * 7) % WORDS.length]}${index}`,
  ).join(" ");
  const text = `${line}\n`.repeat(20);
  mkdirSync(join(corpus.path, "big"));
  for (let file = 0; file < 40; file += 1)
    writeFileSync(join(corpus.path, "big", `part-${file}.txt`), text);
  mkdirSync(join(corpus.path, "small"));
  for (let file = 0; file < 30; file += 1) {
    writeFileSync(
      join(corpus.path, "small", `note-${file}.md`),
      `# Note ${file}\n\nline\n`.repeat(file + 1),
    );
  }
});

afterAll(() => corpus?.cleanup());

describe("progress notifications", () => {
  it("file_stats of a directory reports progress to a client that asked for it", async () => {
    const session = await startStdioSession(["--root", corpus.path, "--families", "fs"]);
    try {
      // The wire is read as it arrives: the SDK client handles a notification a microtask after
      // reading it, so updates that reach it in the same read as the result are dropped there;
      // what the server sent is judged on the messages themselves.
      const wire: { method?: string; id?: unknown; params?: Record<string, unknown> }[] = [];
      const deliver = session.transport.onmessage;
      session.transport.onmessage = (message) => {
        wire.push(message as (typeof wire)[number]);
        deliver?.(message);
      };
      const updates: Progress[] = [];
      const result = await session.client.callTool(
        { name: "file_stats", arguments: { path: "small" } },
        undefined,
        { onprogress: (progress) => updates.push(progress) },
      );
      expect(result.isError ?? false).toBe(false);
      const answer = wire.findIndex((message) => message.id !== undefined);
      const sent = wire
        .slice(0, answer)
        .filter((message) => message.method === "notifications/progress")
        .map((message) => message.params as unknown as Progress);
      // One update per file, all before the result.
      expect(sent).toHaveLength(30);
      expect(
        wire.slice(answer).some((message) => message.method === "notifications/progress"),
      ).toBe(false);
      const values = sent.map((update) => update.progress);
      expect([...values].sort((left, right) => left - right)).toEqual(values);
      expect(new Set(values).size).toBe(values.length);
      expect(sent.every((update) => update.total === undefined || update.total === 30)).toBe(true);
      expect(sent.some((update) => update.message?.includes("note-") ?? false)).toBe(true);
      // What the SDK hands the caller is a subset of those updates.
      expect(updates.length).toBeLessThanOrEqual(30);
      expect(updates.every((update) => values.includes(update.progress))).toBe(true);
    } finally {
      await session.close();
    }
  });
});

describe("cancellation", () => {
  it("a cancelled grep_search kills ripgrep: no rg is left under the server", async () => {
    const session = await startStdioSession(["--root", corpus.path, "--families", "fs"]);
    try {
      const controller = new AbortController();
      const call = session.client.callTool(
        { name: "grep_search", arguments: { pattern: EXPENSIVE_PATTERN, path: "big" } },
        undefined,
        { signal: controller.signal, timeout: 120_000 },
      );
      const outcome = call.then(
        () => "resolved",
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      );
      const ripgrep = () => descendants(session.pid).filter((process) => process.command === "rg");
      await waitUntil(() => ripgrep().length > 0, "rg never started under the server");
      controller.abort(new Error("the user cancelled"));
      expect(await outcome).toContain("the user cancelled");
      // Left alone, this rg would run for well over ten seconds.
      await waitUntil(
        () => ripgrep().length === 0,
        `rg still runs under the server after the cancellation: ${JSON.stringify(ripgrep())}`,
        5_000,
      );
      // The server is still serving after the cancellation.
      const after = await session.client.callTool({
        name: "grep_search",
        arguments: { pattern: "Note 3", path: "small" },
      });
      expect(JSON.stringify(after.content)).toContain("note-3.md");
    } finally {
      await session.close();
    }
  });

  it("closing the client mid-grep stops the server and its rg", async () => {
    const session = await startStdioSession(["--root", corpus.path, "--families", "fs"]);
    const call = session.client
      .callTool(
        { name: "grep_search", arguments: { pattern: EXPENSIVE_PATTERN, path: "big" } },
        undefined,
        { timeout: 120_000 },
      )
      .catch(() => "closed");
    await waitUntil(
      () => descendants(session.pid).some((process) => process.command === "rg"),
      "rg never started under the server",
    );
    const children = descendants(session.pid).filter((process) => process.command === "rg");
    await session.close();
    await call;
    for (const child of children) {
      await waitUntil(() => !isRunning(child.pid), `rg ${child.pid} outlived the server`);
    }
  });
});
