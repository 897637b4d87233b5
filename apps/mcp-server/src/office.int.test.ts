import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type StdioSession,
  startStdioSession,
  temporaryDirectory,
} from "./test-support/spawn-server.js";
import { callTool as call, resultTextWithMarkers as text } from "./test-support/tool-results.js";

// The office family over stdio, through the real MCP SDK client and the bundled bin. The .docx is
// pandoc's and the .xlsx LibreOffice's when they are installed (documents nobody here wrote),
// else write_document's; either way they are read, edited and read back through the server.

const READ_OFFICE = ["read_document", "read_image"];
const WRITE_OFFICE = ["write_document", "edit_document", "edit_sheet", "edit_notebook"];

/** The release notes, as their author wrote them in Markdown. */
const NOTES_MARKDOWN = [
  "# Tally release notes",
  "",
  "Tally 1.2 counts **hits per day** and reports them weekly.",
  "",
  "Tally listens on port 3000 by default.",
  "",
  "## Changes",
  "",
  "| Change | Issue |",
  "|--------|-------|",
  "| Daily report | 12 |",
  "| JSON content type | 14 |",
  "",
  "- Counter",
  "  - resets at midnight",
  "- Report",
  "",
].join("\n");

/** The hits sheet, as exported from a counter. */
const HITS_ROWS = [
  ["Day", "Hits"],
  ["Monday", "310"],
  ["Tuesday", "120"],
  ["Wednesday", "95"],
];

function installed(command: string): boolean {
  try {
    execFileSync("which", [command], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

let project: ReturnType<typeof temporaryDirectory>;
/** Who made the fixtures: "pandoc", "LibreOffice" or "write_document". */
const madeBy: { docx: string; xlsx: string } = { docx: "write_document", xlsx: "write_document" };

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

beforeAll(async () => {
  project = temporaryDirectory({ "README.md": "# Tally\n" });
  const scratch = mkdtempSync(join(tmpdir(), "agentool-mcp-office-"));
  try {
    if (installed("pandoc")) {
      writeFileSync(join(scratch, "notes.md"), NOTES_MARKDOWN);
      execFileSync("pandoc", [join(scratch, "notes.md"), "-o", join(project.path, "notes.docx")]);
      madeBy.docx = "pandoc";
    }
    if (installed("soffice")) {
      writeFileSync(
        join(scratch, "hits.csv"),
        `${HITS_ROWS.map((row) => row.join(",")).join("\n")}\n`,
      );
      execFileSync(
        "soffice",
        [
          `-env:UserInstallation=file://${join(scratch, "profile")}`,
          "--headless",
          "--convert-to",
          "xlsx",
          "--outdir",
          project.path,
          join(scratch, "hits.csv"),
        ],
        { stdio: "ignore", timeout: 120_000 },
      );
      madeBy.xlsx = "LibreOffice";
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  if (madeBy.docx === "write_document" || madeBy.xlsx === "write_document") {
    await withSession(
      ["--root", project.path, "--families", "office", "--mode", "read-write"],
      async (session) => {
        if (madeBy.docx === "write_document") {
          const written = await call(session, "write_document", {
            path: "notes.docx",
            markdown: NOTES_MARKDOWN,
          });
          expect(written.isError ?? false).toBe(false);
        }
        if (madeBy.xlsx === "write_document") {
          const written = await call(session, "write_document", {
            path: "hits.xlsx",
            rows: HITS_ROWS,
          });
          expect(written.isError ?? false).toBe(false);
        }
      },
    );
  }
}, 180_000);

afterAll(() => project?.cleanup());

describe("the office family over stdio (--families office)", () => {
  it("is not served by default; read-only serves read_document and read_image, annotated read-only; documents names it too", async () => {
    const defaults = await withSession(["--root", project.path], toolNames);
    for (const name of [...READ_OFFICE, ...WRITE_OFFICE]) expect(defaults).not.toContain(name);
    await withSession(["--root", project.path, "--families", "office"], async (session) => {
      const { tools } = await session.client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(READ_OFFICE);
      for (const tool of tools) expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
    });
    const alias = await withSession(["--root", project.path, "--families", "documents"], toolNames);
    expect(alias).toEqual(READ_OFFICE);
  }, 60_000);

  it("read-write adds the writing and editing tools after the read tools", async () => {
    await withSession(
      ["--root", project.path, "--families", "office", "--mode", "read-write"],
      async (session) => {
        const { tools } = await session.client.listTools();
        expect(tools.map((tool) => tool.name)).toEqual([...READ_OFFICE, ...WRITE_OFFICE]);
        for (const tool of tools.filter((item) => WRITE_OFFICE.includes(item.name))) {
          expect(tool.annotations?.readOnlyHint, tool.name).toBe(false);
        }
      },
    );
  }, 30_000);

  it("read_document turns the .docx and the .xlsx into Markdown", async () => {
    await withSession(["--root", project.path, "--families", "office"], async (session) => {
      const notes = await call(session, "read_document", { path: "notes.docx" });
      expect(notes.isError ?? false, text(notes)).toBe(false);
      const markdown = text(notes);
      expect(markdown).toMatch(/^notes\.docx — Word document, \d+ lines of Markdown/);
      expect(markdown).toContain("# Tally release notes");
      expect(markdown).toContain("Tally 1.2 counts **hits per day** and reports them weekly.");
      expect(markdown).toContain("Tally listens on port 3000 by default.");
      expect(markdown).toContain("## Changes");
      expect(markdown).toContain("| Daily report | 12 |");
      expect(markdown).toMatch(/- Counter\n\s+- resets at midnight\n- Report/);

      const hits = await call(session, "read_document", { path: "hits.xlsx" });
      expect(hits.isError ?? false, text(hits)).toBe(false);
      expect(text(hits)).toMatch(/^hits\.xlsx — Excel workbook — sheet "[^"]+", 4 rows/);
      expect(text(hits)).toContain(
        ["|  | A | B |", "| --- | --- | --- |", "| 1 | Day | Hits |", "| 2 | Monday | 310 |"].join(
          "\n",
        ),
      );
      expect(text(hits)).toContain("| 4 | Wednesday | 95 |");
    });
  }, 60_000);

  it("read-only mode refuses the write tools by name, and paths stay confined to --root", async () => {
    const before = readFileSync(join(project.path, "notes.docx"));
    await withSession(["--root", project.path, "--families", "office"], async (session) => {
      await expect(
        call(session, "edit_document", {
          path: "notes.docx",
          old_text: "port 3000",
          new_text: "port 8080",
        }),
      ).rejects.toThrow(/Unknown tool: "edit_document"/);
      const outside = await call(session, "read_document", { path: "../outside.docx" });
      expect(outside.isError).toBe(true);
      expect(text(outside)).toMatch(/^Error \[(INVALID_PATH|PERMISSION_DENIED|BLOCKED)\]: /);
    });
    expect(readFileSync(join(project.path, "notes.docx")).equals(before)).toBe(true);
  }, 30_000);

  it("read-write: edit_document fixes a sentence, edit_sheet adds a row, both read back", async () => {
    const scratch = temporaryDirectory();
    try {
      for (const name of ["notes.docx", "hits.xlsx"]) {
        writeFileSync(join(scratch.path, name), readFileSync(join(project.path, name)));
      }
      await withSession(
        ["--root", scratch.path, "--families", "office", "--mode", "read-write"],
        async (session) => {
          const edited = await call(session, "edit_document", {
            path: "notes.docx",
            old_text: "Tally listens on port 3000 by default.",
            new_text: "Tally listens on port 8080 by default.",
          });
          expect(edited.isError ?? false, text(edited)).toBe(false);
          expect(text(edited)).toMatch(/^Edited notes\.docx: replaced 1 occurrence/);
          expect(text(edited)).toContain("Tally listens on port 8080 by default.");
          const notes = text(await call(session, "read_document", { path: "notes.docx" }));
          expect(notes).toContain("Tally listens on port 8080 by default.");
          expect(notes).not.toContain("port 3000");
          // The runs the edit did not touch keep their formatting.
          expect(notes).toContain("Tally 1.2 counts **hits per day** and reports them weekly.");
          expect(notes).toContain("| JSON content type | 14 |");

          const sheet = await call(session, "edit_sheet", {
            path: "hits.xlsx",
            cells: [
              { cell: "A5", value: "Thursday" },
              { cell: "B5", value: "140" },
            ],
          });
          expect(sheet.isError ?? false, text(sheet)).toBe(false);
          expect(text(sheet)).toContain("(1 new row)");
          const hits = text(await call(session, "read_document", { path: "hits.xlsx" }));
          expect(hits).toMatch(/sheet "[^"]+", 5 rows/);
          expect(hits).toContain("| 4 | Wednesday | 95 |\n| 5 | Thursday | 140 |");

          // write_document makes a new workbook; it refuses to replace one without overwrite.
          const again = await call(session, "write_document", {
            path: "hits.xlsx",
            rows: [["x"]],
          });
          expect(again.isError).toBe(true);
          expect(text(again)).toMatch(/^Error \[[A-Z_]+\]: /);
        },
      );
    } finally {
      scratch.cleanup();
    }
  }, 60_000);

  it(`reads fixtures made by other people's tools where installed (docx: pandoc, xlsx: LibreOffice)`, () => {
    // Stated, not required: without pandoc or LibreOffice the fixtures are write_document's.
    expect(["pandoc", "write_document"]).toContain(madeBy.docx);
    expect(["LibreOffice", "write_document"]).toContain(madeBy.xlsx);
  });
});
