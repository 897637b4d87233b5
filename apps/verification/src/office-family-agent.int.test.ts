// The office family through LangChain as a host runs it: `createOfficeTools` wrapped by
// `toLangChainTools` in a real `createAgent` (langchain) driven by a scripted `fakeModel()`, on a
// document nobody here wrote — git's README from Debian's /usr/share/doc, converted to .docx by
// pandoc — and a workbook LibreOffice converted from CSV (each made by write_document instead
// where the converter is not installed). The assertions read the tool messages the model got back.
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { toLangChainTools } from "@agentool/adapters/langchain";
import {
  createOfficeTools,
  createWriteDocumentTool,
  OFFICE_READ_TOOL_NAMES,
  OFFICE_WRITE_TOOL_NAMES,
} from "@agentool/tools-office";
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { createAgent } from "langchain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const GIT_README = "/usr/share/doc/git/README.md";
/** What the test reads when Debian's git README is missing (its opening, as git ships it). */
const FALLBACK_README = [
  "Git - fast, scalable, distributed revision control system",
  "=========================================================",
  "",
  "Git is a fast, scalable, distributed revision control system with an",
  "unusually rich command set that provides both high-level operations",
  "and full access to internals.",
  "",
  "Git is an Open Source project covered by the GNU General Public",
  "License version 2 (some parts of it are under different licenses,",
  "compatible with the GPLv2). It was originally written by Linus",
  "Torvalds with help of a group of hackers around the net.",
  "",
  "Please read the file [INSTALL][] for installation instructions.",
  "",
  "[INSTALL]: INSTALL",
  "",
].join("\n");

const OWNERS_CSV = "Area,Owner,Open\nrefs,Alice,3\nmerge,Bob,5\n";

let root: string;
const madeBy = { docx: "write_document", xlsx: "write_document" };

function installed(command: string): boolean {
  try {
    execFileSync("which", [command], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "agentool-office-agent-")));
  const scratch = mkdtempSync(join(tmpdir(), "agentool-office-agent-src-"));
  try {
    // The badge image line is left out: pandoc would fetch it from the network.
    const markdown = (existsSync(GIT_README) ? readFileSync(GIT_README, "utf8") : FALLBACK_README)
      .split("\n")
      .filter((line) => !line.startsWith("[!["))
      .join("\n");
    const write = createWriteDocumentTool({ root });
    if (installed("pandoc")) {
      writeFileSync(join(scratch, "README.md"), markdown);
      execFileSync("pandoc", [join(scratch, "README.md"), "-o", join(root, "git-readme.docx")]);
      madeBy.docx = "pandoc";
    } else {
      const written = await write.run({ path: "git-readme.docx", markdown });
      expect(written.success).toBe(true);
    }
    if (installed("soffice")) {
      writeFileSync(join(scratch, "owners.csv"), OWNERS_CSV);
      execFileSync(
        "soffice",
        [
          `-env:UserInstallation=file://${join(scratch, "profile")}`,
          "--headless",
          "--convert-to",
          "xlsx",
          "--outdir",
          root,
          join(scratch, "owners.csv"),
        ],
        { stdio: "ignore", timeout: 120_000 },
      );
      madeBy.xlsx = "LibreOffice";
    } else {
      const rows = OWNERS_CSV.trim()
        .split("\n")
        .map((line) => line.split(","));
      const written = await write.run({ path: "owners.xlsx", rows });
      expect(written.success).toBe(true);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}, 180_000);

afterAll(() => {
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
});

function toolMessages(messages: readonly unknown[]): ToolMessage[] {
  return messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message));
}

describe("the office family in a LangChain agent (createAgent + fakeModel)", () => {
  it("read_document on pandoc's .docx and LibreOffice's .xlsx, edit_document and edit_sheet, then both read back", async () => {
    const model = fakeModel()
      .respondWithTools([
        { id: "readme", name: "read_document", args: { path: "git-readme.docx" } },
        { id: "owners", name: "read_document", args: { path: "owners.xlsx" } },
      ])
      .respondWithTools([
        {
          id: "edit",
          name: "edit_document",
          args: {
            path: "git-readme.docx",
            old_text: "with help of a group of hackers around the net",
            new_text: "with help of a group of contributors around the world",
          },
        },
        {
          id: "row",
          name: "edit_sheet",
          args: {
            path: "owners.xlsx",
            cells: [
              { cell: "A4", value: "gc" },
              { cell: "B4", value: "Carol" },
              { cell: "C4", value: "2" },
            ],
          },
        },
      ])
      .respondWithTools([
        { id: "readme-after", name: "read_document", args: { path: "git-readme.docx" } },
        { id: "owners-after", name: "read_document", args: { path: "owners.xlsx" } },
      ])
      .respond(new AIMessage("The README credits contributors now; gc is owned by Carol."));
    const tools = toLangChainTools(createOfficeTools({ root, mode: "read-write" }), {
      allowDestructive: true,
    });
    expect(tools.map((tool) => tool.name)).toEqual([
      ...OFFICE_READ_TOOL_NAMES,
      ...OFFICE_WRITE_TOOL_NAMES,
    ]);
    const agent = createAgent({ model, tools });
    const state = await agent.invoke({
      messages: [
        new HumanMessage(
          "Credit git's contributors instead of 'hackers around the net', and add gc (Carol, 2 open) to the owners sheet.",
        ),
      ],
    });
    const messages = toolMessages(state.messages);
    expect(messages.map((message) => message.tool_call_id)).toEqual([
      "readme",
      "owners",
      "edit",
      "row",
      "readme-after",
      "owners-after",
    ]);
    for (const message of messages) {
      expect(message.status, String(message.content)).toBe("success");
    }
    const [readme, owners, edit, row, readmeAfter, ownersAfter] = messages.map((message) =>
      String(message.content),
    );

    // git's README as Markdown: the setext title a heading, links kept, the list's items.
    expect(readme).toMatch(/^git-readme\.docx — Word document, \d+ lines of Markdown/);
    expect(readme).toContain("# Git - fast, scalable, distributed revision control system");
    expect(readme).toContain(
      "It was originally written by Linus Torvalds with help of a group of hackers around the net.",
    );
    // The INSTALL link: its target, whether written as a link or (text = target) an autolink.
    expect(readme).toMatch(/\[INSTALL\]\(INSTALL\)|<INSTALL>/);
    if (existsSync(GIT_README)) {
      expect(readme).toMatch(/^- random three-letter combination/m);
      expect(readme).toContain("<https://git-scm.com/>");
    }
    expect(owners).toMatch(/^owners\.xlsx — Excel workbook — sheet "[^"]+", 3 rows/);
    expect(owners).toContain("| 1 | Area | Owner | Open |\n| 2 | refs | Alice | 3 |");

    expect(edit).toMatch(/^Edited git-readme\.docx: replaced 1 occurrence/);
    expect(edit).toContain("with help of a group of contributors around the world.");
    expect(row).toContain("(1 new row)");

    expect(readmeAfter).toContain(
      "It was originally written by Linus Torvalds with help of a group of contributors around the world.",
    );
    expect(readmeAfter).not.toContain("hackers around the net");
    // The paragraphs the edit did not touch read as before.
    const untouched = (text = "") =>
      text.split("\n").filter((line) => !line.includes("Linus Torvalds with help"));
    expect(untouched(readmeAfter)).toEqual(untouched(readme));
    expect(ownersAfter).toMatch(/sheet "[^"]+", 4 rows/);
    expect(ownersAfter).toContain("| 3 | merge | Bob | 5 |\n| 4 | gc | Carol | 2 |");

    // The model's second call saw the first two results; the run ended with its answer.
    expect(model.callCount).toBe(4);
    const secondCall = toolMessages(model.calls[1]?.messages ?? []);
    expect(secondCall.map((message) => message.tool_call_id)).toEqual(["readme", "owners"]);
    expect(state.messages.at(-1)?.content).toBe(
      "The README credits contributors now; gc is owned by Carol.",
    );
  }, 60_000);

  it("a text the document does not hold and a path outside the root come back as tool errors the model can read", async () => {
    const model = fakeModel()
      .respondWithTools([
        {
          id: "missing",
          name: "edit_document",
          args: { path: "git-readme.docx", old_text: "Mercurial", new_text: "Git" },
        },
        { id: "outside", name: "read_document", args: { path: "../outside.docx" } },
      ])
      .respond(new AIMessage("Both were refused."));
    const agent = createAgent({
      model,
      tools: toLangChainTools(createOfficeTools({ root, mode: "read-write" }), {
        allowDestructive: true,
      }),
    });
    const before = readFileSync(join(root, "git-readme.docx"));
    const state = await agent.invoke({ messages: [new HumanMessage("try")] });
    const [missing, outside] = toolMessages(state.messages);
    expect(missing?.status).toBe("error");
    expect(String(missing?.content)).toMatch(
      /^Error \[PATTERN_NOT_FOUND\]: old_text does not occur in git-readme\.docx\./,
    );
    expect(outside?.status).toBe("error");
    expect(String(outside?.content)).toMatch(
      /^Error \[(INVALID_PATH|PERMISSION_DENIED|BLOCKED)\]: /,
    );
    expect(readFileSync(join(root, "git-readme.docx")).equals(before)).toBe(true);
  }, 60_000);

  it("names who made the documents (pandoc and LibreOffice where installed)", () => {
    expect(["pandoc", "write_document"]).toContain(madeBy.docx);
    expect(["LibreOffice", "write_document"]).toContain(madeBy.xlsx);
  });
});
