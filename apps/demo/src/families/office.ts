import { createOfficeTools, createWriteDocumentTool } from "@agentool/tools-office";
import type { DemoFamily } from "./demo-family.js";

/** The tools the office tools' descriptions may name (served by the demo's files family). */
const MOUNTED = ["read_file", "glob_search"];

/** The weekly report (Word), written at setup from this Markdown. */
export const WEEKLY_REPORT_PATH = "reports/weekly-report.docx";
/** The daily hits (Excel), written at setup from {@link HITS_ROWS}. */
export const HITS_PATH = "reports/hits.xlsx";

/**
 * The report as last week's run wrote it — with the bug the code family fixes: percent() got
 * the whole first, so Monday's 310 of 1,240 hits came out as 400% instead of 25%.
 */
export const WEEKLY_REPORT_MARKDOWN = [
  "# Tally weekly report",
  "",
  "Week 49: the counter answered **1,240 hits**, 177 a day on average.",
  "",
  "Monday was the busiest day: 310 hits, 400% of the week.",
  "",
  "## Next week",
  "",
  "- Default to port 8080, as the README documents",
  "- Send a JSON content type from GET /count",
  "",
].join("\n");

/** The wrong sentence's words and their fix (310 of 1,240 is 25%). */
export const REPORT_FIX = {
  old_text: "310 hits, 400% of the week",
  new_text: "310 hits, 25% of the week",
};

/** Monday to Saturday; Sunday's 60 hits are missing (the week's total is 1,240). */
export const HITS_ROWS = [
  ["Day", "Hits"],
  ["Monday", "310"],
  ["Tuesday", "180"],
  ["Wednesday", "150"],
  ["Thursday", "200"],
  ["Friday", "240"],
  ["Saturday", "100"],
];

/**
 * The `@agentool/tools-office` family, read-write (`createOfficeTools`): the code family fixed
 * percent(), but last week's report was written with the bug. The agent opens the Word report
 * with `read_document` (Markdown: the heading, the bold total, the list), fixes the sentence with
 * `edit_document` (the runs around it keep their formatting), reads the hits workbook, adds
 * Sunday's missing row with `edit_sheet`, and reads both files back. The two files are made at
 * setup by `write_document` (nothing binary is committed), before the git family's first
 * commit.
 */
export const officeFamily: DemoFamily = {
  name: "office",
  prepareWorkspace: async (workspaceRoot) => {
    const write = createWriteDocumentTool({ root: workspaceRoot });
    for (const input of [
      { path: WEEKLY_REPORT_PATH, markdown: WEEKLY_REPORT_MARKDOWN },
      { path: HITS_PATH, rows: HITS_ROWS },
    ]) {
      const written = await write.run(input);
      if (!written.success) {
        throw new Error(
          `office demo setup: ${input.path}: ${written.error.code} ${written.error.message}`,
        );
      }
    }
  },
  createTools: ({ workspaceRoot }) =>
    createOfficeTools({ root: workspaceRoot, mode: "read-write", mountedTools: MOUNTED }),
  tasks: [
    {
      // One plan step for the two documents: update_plan takes at most 20 steps.
      step: "Fix last week's report: Monday's share in the .docx, Sunday's row in the .xlsx; read both back",
      turns: [
        {
          text: "Last week's report was written before percent() was fixed. What does it say?",
          toolCalls: [{ name: "read_document", arguments: { path: WEEKLY_REPORT_PATH } }],
        },
        {
          text: "310 of 1,240 hits is 25%, not 400%: the same swapped arguments. Fix that sentence.",
          toolCalls: [
            { name: "edit_document", arguments: { path: WEEKLY_REPORT_PATH, ...REPORT_FIX } },
          ],
        },
        {
          text: "The report counts 1,240 hits. Does the hits workbook add up to that?",
          toolCalls: [{ name: "read_document", arguments: { path: HITS_PATH } }],
        },
        {
          text: "Monday to Saturday make 1,180: Sunday's 60 hits are missing. Add the row.",
          toolCalls: [
            {
              name: "edit_sheet",
              arguments: {
                path: HITS_PATH,
                cells: [
                  { cell: "A8", value: "Sunday" },
                  { cell: "B8", value: "60" },
                ],
              },
            },
          ],
        },
        {
          text: "Both files again, as a reader would open them.",
          toolCalls: [
            { name: "read_document", arguments: { path: WEEKLY_REPORT_PATH } },
            { name: "read_document", arguments: { path: HITS_PATH } },
          ],
        },
      ],
    },
  ],
  findings: [
    "Fixed in reports/weekly-report.docx: Monday's 310 hits are 25% of the week, not 400% (edit_document, formatting kept); reports/hits.xlsx gained Sunday's missing row (60 hits, the week now adds up to 1,240).",
  ],
};
