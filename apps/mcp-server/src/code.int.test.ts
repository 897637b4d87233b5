import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type StdioSession,
  startStdioSession,
  temporaryDirectory,
} from "./test-support/spawn-server.js";
import { callTool as call, resultTextWithMarkers as text } from "./test-support/tool-results.js";

// The code family over stdio, through the real MCP SDK client and the bundled bin: tree-sitter's
// grammars (.wasm) and ast-grep's native binary are loaded at run time from node_modules.

const READ_CODE = ["repo_map", "code_outline", "find_symbol", "find_references", "ast_search"];
const WRITE_CODE = ["replace_symbol", "ast_rewrite"];

/** A small project with one function called wrongly (arguments swapped) from one place. */
const PROJECT = {
  "src/percent.ts": [
    "/** `part` as a whole-number percentage of `whole` (0 when `whole` is 0). */",
    "export function percent(part: number, whole: number): number {",
    "  return whole === 0 ? 0 : Math.round((part / whole) * 100);",
    "}",
    "",
  ].join("\n"),
  "src/report.ts": [
    'import { percent } from "./percent.ts";',
    "",
    "export class Report {",
    "  constructor(private readonly total: number) {}",
    "",
    "  /** Today's share of the week's hits, in percent. */",
    "  share(today: number): number {",
    "    return percent(this.total, today);",
    "  }",
    "}",
    "",
  ].join("\n"),
  "README.md": "# Report\n\nPrints the share of today's hits.\n",
};

let project: ReturnType<typeof temporaryDirectory>;

beforeAll(() => {
  project = temporaryDirectory(PROJECT);
});

afterAll(() => project?.cleanup());

async function withSession<T>(
  args: string[],
  work: (session: StdioSession) => Promise<T>,
): Promise<T> {
  const session = await startStdioSession(args);
  try {
    return await work(session);
  } finally {
    await session.close();
  }
}

async function toolNames(session: StdioSession): Promise<string[]> {
  const { tools } = await session.client.listTools();
  return tools.map((tool) => tool.name);
}

describe("the code family over stdio (--families code)", () => {
  it("is not served by default; read-only serves only the read tools, annotated read-only", async () => {
    const defaults = await withSession(["--root", project.path], toolNames);
    for (const name of [...READ_CODE, ...WRITE_CODE]) expect(defaults).not.toContain(name);
    await withSession(["--root", project.path, "--families", "code"], async (session) => {
      const { tools } = await session.client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(READ_CODE);
      for (const tool of tools) expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
    });
  }, 60_000);

  it("read-write adds replace_symbol and ast_rewrite after the read tools", async () => {
    const listed = await withSession(
      ["--root", project.path, "--families", "code", "--mode", "read-write"],
      toolNames,
    );
    expect(listed).toEqual([...READ_CODE, ...WRITE_CODE]);
  }, 30_000);

  it("find_symbol, code_outline and find_references on a real project", async () => {
    await withSession(["--root", project.path, "--families", "code"], async (session) => {
      const found = await call(session, "find_symbol", { name: "percent" });
      expect(found.isError ?? false).toBe(false);
      expect(text(found)).toContain("src/percent.ts:2-4");
      expect(text(found)).toContain("export function percent(part: number, whole: number)");
      const method = await call(session, "find_symbol", { name: "Report.share" });
      expect(text(method)).toContain("src/report.ts:7-9");
      const outline = await call(session, "code_outline", { path: "src/report.ts" });
      expect(outline.isError ?? false).toBe(false);
      expect(text(outline)).toContain("src/report.ts — typescript");
      expect(text(outline)).toMatch(/3-10\s+export class Report/);
      expect(text(outline)).toMatch(/7-9\s+method share\(today: number\): number/);
      const references = await call(session, "find_references", { name: "percent" });
      expect(references.isError ?? false).toBe(false);
      expect(text(references)).toContain("src/report.ts");
      const search = await call(session, "ast_search", {
        pattern: "percent($A, $B)",
        language: "typescript",
      });
      expect(text(search)).toContain("$A = this.total");
    });
  }, 60_000);

  it("read-only mode refuses the write tools by name, and paths stay confined to --root", async () => {
    await withSession(["--root", project.path, "--families", "code"], async (session) => {
      // Not served: the server answers as for any unknown tool (a protocol error naming tools/list).
      await expect(
        call(session, "ast_rewrite", {
          pattern: "percent($A, $B)",
          rewrite: "percent($B, $A)",
          language: "typescript",
        }),
      ).rejects.toThrow(/Unknown tool: "ast_rewrite"/);
      const outside = await call(session, "code_outline", { path: "../../etc/passwd" });
      expect(outside.isError).toBe(true);
      expect(text(outside)).toMatch(/^Error \[(INVALID_PATH|PERMISSION_DENIED|BLOCKED)\]: /);
    });
    expect(readFileSync(join(project.path, "src/report.ts"), "utf8")).toBe(
      PROJECT["src/report.ts"],
    );
  }, 30_000);

  it("ast_rewrite in read-write mode: a dry run writes nothing, the real run lands on disk", async () => {
    const scratch = temporaryDirectory(PROJECT);
    try {
      await withSession(
        ["--root", scratch.path, "--families", "code", "--mode", "read-write"],
        async (session) => {
          const args = {
            pattern: "percent(this.total, $B)",
            rewrite: "percent($B, this.total)",
            language: "typescript",
          };
          const dry = await call(session, "ast_rewrite", { ...args, dry_run: true });
          expect(dry.isError ?? false).toBe(false);
          expect(text(dry)).toContain("+    return percent(today, this.total);");
          expect(readFileSync(join(scratch.path, "src/report.ts"), "utf8")).toBe(
            PROJECT["src/report.ts"],
          );
          const applied = await call(session, "ast_rewrite", args);
          expect(applied.isError ?? false).toBe(false);
          expect(readFileSync(join(scratch.path, "src/report.ts"), "utf8")).toContain(
            "return percent(today, this.total);",
          );
          const again = await call(session, "ast_search", {
            pattern: "percent(this.total, $B)",
            language: "typescript",
          });
          expect(again.isError ?? false).toBe(false);
          expect(text(again)).toMatch(/^No match/);
        },
      );
    } finally {
      scratch.cleanup();
    }
  }, 60_000);

  it("leaves code out with a note when there is no root", async () => {
    await withSession(["--families", "core,code"], async (session) => {
      expect(await toolNames(session)).toEqual(["think", "update_plan"]);
      expect(session.stderr()).toContain("code tools left out: no root");
    });
  }, 30_000);
});
