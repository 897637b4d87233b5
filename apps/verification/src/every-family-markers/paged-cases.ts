// The paged calls the every-family markers test walks (every tool that cuts a page, through a
// LangGraph ToolNode and over agentool-mcp): their first arguments, totals and how to read the
// items off a page, and the walk that follows each page's marker literally.
import { parseNextCall } from "@agentool/contract";
import { RECORDED_FIGMA_FILES } from "@agentool/tools-design/testing";
import { createWriteDocumentTool } from "@agentool/tools-office";
import { expect } from "vitest";

/** A tool's arguments. */
export type Args = Record<string, unknown>;
/** One way of calling a tool: the text the model reads back. */
export type Caller = (tool: string, args: Args) => Promise<string>;

const DESIGN_SYSTEM = RECORDED_FIGMA_FILES.designSystem;

/** One paged call: the first arguments, how many items there are, how to read them off a page. */
export interface PagedCase {
  tool: string;
  args: Args;
  total: number;
  /** The items of one page's text (keys that identify each item). */
  items(page: string): string[];
  /** First-call arguments a marker may leave out because they equal the tool's default. */
  defaults?: Args;
  /** Where a page states the total, when not as "1–40 of 150" (its first group). */
  totalPattern?: RegExp;
}

const matchAll = (text: string, pattern: RegExp): string[] =>
  [...text.matchAll(pattern)].map((found) => found[1] ?? "");

/** The body lines of a listing page: every line but the header and the marker. */
const listedLines = (page: string): string[] =>
  page
    .split("\n")
    .slice(1)
    .filter((line) => line.trim() !== "" && !line.startsWith("…["));

function grepItems(page: string): string[] {
  const items: string[] = [];
  let file = "";
  for (const line of page.split("\n").slice(1)) {
    const hit = /^(\d+): /.exec(line);
    if (hit !== null) items.push(`${file}:${hit[1]}`);
    else if (line.startsWith("many/")) file = line.trim();
  }
  return items;
}

export const PAGED_CASES: PagedCase[] = [
  {
    tool: "read_file",
    args: { path: "long.txt", limit: 500 },
    total: 3000,
    items: (page) => matchAll(page, /^\s*(\d+)\t/gm),
  },
  {
    tool: "list_directory",
    args: { path: "many", limit: 40 },
    total: 150,
    items: listedLines,
  },
  {
    tool: "glob_search",
    args: { pattern: "many/*.ts", limit: 40 },
    total: 150,
    items: listedLines,
  },
  {
    tool: "grep_search",
    args: { pattern: "needle", path: "many", output_mode: "content", limit: 50 },
    total: 150,
    items: grepItems,
    // grep_search's marker leaves out a filter at its default (grep-search-format.ts says so);
    // "content" is output_mode's default, so the followed call still pages matching lines.
    defaults: { output_mode: "content" },
  },
  {
    tool: "ast_search",
    args: {
      pattern: 'export const $N = "needle"',
      language: "typescript",
      path: "many",
      limit: 40,
    },
    total: 150,
    items: (page) => matchAll(page, /^(many\/f\d+\.ts:\d+)$/gm),
  },
  {
    // A workbook of 150 rows (header and 149 data rows) written by write_document; its header
    // states the total as "150 rows; rows 1–40 shown".
    tool: "read_document",
    args: { path: "visits.xlsx", limit: 40 },
    total: 150,
    items: (page) => matchAll(page, /^\| (\d+) \| /gm),
    totalPattern: /, (\d[\d,]*) rows; rows \d/,
  },
  {
    // A 34-layer screen of the recorded design system, ten layers a page; the header states the
    // total as "34 layers".
    tool: "design_read",
    args: { file_key: DESIGN_SYSTEM.fileKey, node_id: DESIGN_SYSTEM.nodes.dashboard, limit: 10 },
    total: 34,
    items: (page) => matchAll(page, /^\s*[a-z_]+ ".*?" #(\S+) /gm),
    totalPattern: /: (\d+) layers \(/,
  },
  {
    tool: "git_log",
    args: { limit: 10 },
    total: 40,
    items: (page) => matchAll(page, /^([0-9a-f]{7,40}) /gm),
  },
  {
    tool: "memory_search",
    args: { query: "fact", tags: ["ops"], limit: 4 },
    total: 15,
    items: (page) => matchAll(page, /^\d+\. (\S+) \(/gm),
  },
  {
    tool: "memory_list",
    args: { limit: 6 },
    total: 25,
    items: (page) => matchAll(page, /^- (\S+) \(/gm),
  },
  {
    tool: "search_knowledge",
    args: { query: "deploy", limit: 3 },
    total: 30,
    items: (page) => matchAll(page, /^\d+\. (\S+) — /gm),
  },
];

const MARKER = /call [a-z][a-z0-9_]* again/g;
/** "1–40 of 150", "Commits 11–20 of 40": the stated total of a page. */
const TOTAL = /\d[\d,]*–\d[\d,]* of (\d[\d,]*)/;

/** Writes visits.xlsx: a header and 149 rows of visits, one sheet (write_document's workbook). */
export async function addWorkbook(root: string): Promise<void> {
  const rows = [
    ["City", "Visits"],
    ...Array.from({ length: 149 }, (_, index) => [`City ${index + 1}`, String(index * 7)]),
  ];
  const written = await createWriteDocumentTool({ root }).run({ path: "visits.xlsx", rows });
  expect(written.success, JSON.stringify(written)).toBe(true);
}

/** Saves 15 memories tagged ops and 10 tagged home. */
export async function seedMemories(call: Caller): Promise<void> {
  for (let index = 0; index < 25; index += 1) {
    const tag = index < 15 ? "ops" : "home";
    await call("memory_write", {
      key: `${tag}-${index}`,
      content: `${tag} fact ${index}`,
      tags: [tag],
    });
  }
}

/** Follows `paged`'s markers literally from its first call to the last page, checking each page. */
export async function walkPages(call: Caller, paged: PagedCase): Promise<void> {
  const seen: string[] = [];
  let args: Args = paged.args;
  for (let page = 1; page <= 100; page += 1) {
    const text = await call(paged.tool, args);
    const where = `${paged.tool} page ${page} (${JSON.stringify(args)}):\n${text.slice(-400)}`;
    expect((paged.totalPattern ?? TOTAL).exec(text)?.[1]?.replaceAll(",", ""), where).toBe(
      String(paged.total),
    );
    seen.push(...paged.items(text));
    const markers = text.match(MARKER) ?? [];
    if (markers.length === 0) break;
    expect(markers, where).toEqual([`call ${paged.tool} again`]);
    const next = parseNextCall(text);
    expect(next?.tool, where).toBe(paged.tool);
    const nextArgs = next?.args ?? {};
    for (const [key, value] of Object.entries(paged.args)) {
      if (key in nextArgs || paged.defaults?.[key] !== value) {
        expect(nextArgs[key], `${where}\n(argument ${key})`).toEqual(value);
      }
    }
    expect(typeof nextArgs.offset, where).toBe("number");
    args = nextArgs;
  }
  expect(new Set(seen).size, `${paged.tool}: duplicate items`).toBe(seen.length);
  expect(seen.length, `${paged.tool}: items over all pages`).toBe(paged.total);
}
