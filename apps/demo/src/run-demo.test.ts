import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { codeFamily, PERCENT_COMMIT_MESSAGE } from "./families/code.js";
import { coreFamily } from "./families/core.js";
import type { DemoFamily } from "./families/demo-family.js";
import { filesFamily } from "./families/files.js";
import { gitFamily } from "./families/git.js";
import { DEMO_FAMILIES } from "./families/index.js";
import { knowledgeFamily, SAVED_DOCS_PAGE } from "./families/knowledge.js";
import { HITS_PATH, officeFamily, WEEKLY_REPORT_PATH } from "./families/office.js";
import { webFamily } from "./families/web.js";
import { runDemo } from "./run-demo.js";
import { buildScript, createScriptedModel, REPORT_STEP } from "./scripted-model.js";
import { formatTranscript, type TranscriptEvent } from "./transcript.js";

function toolCalls(events: readonly TranscriptEvent[]) {
  return events.flatMap((event) => (event.type === "tool_call" ? [event] : []));
}

function toolResults(events: readonly TranscriptEvent[]) {
  return events.flatMap((event) => (event.type === "tool_result" ? [event] : []));
}

describe("runDemo (scripted)", () => {
  it("runs the core family's script end to end: plan, think, tick the plan, answer", async () => {
    const streamed: TranscriptEvent[] = [];
    const run = await runDemo({ families: [coreFamily], onEvent: (event) => streamed.push(event) });

    expect(run.summary.failure).toBeUndefined();
    expect(run.summary.mode).toBe("scripted");
    expect(run.summary.toolErrors).toBe(0);
    expect(streamed).toEqual(run.events);

    expect(toolCalls(run.events).map((call) => call.name)).toEqual([
      "update_plan",
      "think",
      "update_plan",
      "think",
      "update_plan",
      "update_plan",
    ]);
    expect(run.summary.toolCalls).toBe(6);
    expect(run.summary.toolCallsByName).toEqual({ update_plan: 4, think: 2 });
    expect(run.summary.modelTurns).toBe(7);

    // Every call got a successful result, matched by id, in the same order.
    const results = toolResults(run.events);
    expect(results.map((result) => result.toolCallId)).toEqual(
      toolCalls(run.events).map((call) => call.toolCallId),
    );
    expect(results.every((result) => result.success)).toBe(true);
    expect(results[1]?.content).toBe("Thought recorded. Continue with your next step.");

    // Plan results carry the canonical plan from the envelope (the adapter's artifact).
    const plans = results.flatMap((result) => (result.plan === undefined ? [] : [result.plan]));
    expect(plans).toHaveLength(4);
    expect(plans[0]?.map((item) => item.status)).toEqual(["in_progress", "pending", "pending"]);
    expect(plans[3]?.every((item) => item.status === "completed")).toBe(true);

    // onUpdate saved the last plan under the thread id passed through the adapter.
    expect(run.summary.finalPlan).toEqual(plans[3]);

    const events = run.events.map((event) => event.type);
    expect(events[0]).toBe("start");
    expect(events[1]).toBe("user");
    expect(events.at(-1)).toBe("final");
    expect(run.summary.finalAnswer).toContain("port 8080");
  });

  it("prints a readable transcript with the plan as a checklist and a summary", async () => {
    const run = await runDemo({ families: [coreFamily] });
    const text = formatTranscript(run);
    expect(text).toContain("agentool demo — scripted model (no API key needed)");
    expect(text).toContain("tools: think, update_plan");
    expect(text).toContain('→ update_plan {"explanation":"Initial plan.","plan":"[3 steps]"}');
    expect(text).toContain(
      [
        "← update_plan ✓ plan (1/3 done)",
        "    [x] Weigh the open todo items and pick the first fix",
        "    [~] Check the port fix against the README before changing anything",
        `    [ ] ${REPORT_STEP}`,
      ].join("\n"),
    );
    expect(text).toContain("← update_plan ✓ plan (3/3 done)");
    expect(text).toContain('→ think {"thought":"Four items are open');
    expect(text).toContain("← think ✓\n    Thought recorded.");
    expect(text).toContain("assistant (final) ›\n  Here is where things stand:");
    expect(text).toMatch(/tool calls: {2}6 \(update_plan ×4, think ×2\)/);
    expect(text).toMatch(/errors: {6}0/);
    expect(text).toContain("final plan:  3/3 done (saved by onUpdate)");
    expect(text).toContain("outcome:     finished");
  });

  it("runs every registered family's script with no errors", async () => {
    const memoryDirectory = mkdtempSync(join(tmpdir(), "agentool-demo-memory-"));
    const run = await runDemo({ memoryDirectory }).finally(() =>
      rmSync(memoryDirectory, { recursive: true, force: true }),
    );
    expect(run.summary.failure).toBeUndefined();
    expect(run.summary.toolErrors).toBe(0);
    const scripted = buildScript(DEMO_FAMILIES).flatMap((turn) =>
      turn.toolCalls.map((call) => call.name),
    );
    expect(toolCalls(run.events).map((call) => call.name)).toEqual(scripted);
    expect(run.summary.finalPlan?.every((item) => item.status === "completed")).toBe(true);
  });

  it("runs the files family: explore, grep, read, then edit with a diff", async () => {
    const run = await runDemo({ families: [coreFamily, filesFamily] });
    expect(run.summary.toolErrors).toBe(0);
    const calls = toolCalls(run.events).map((call) => call.name);
    expect(calls.filter((name) => name !== "update_plan" && name !== "think")).toEqual([
      "list_directory",
      "grep_search",
      "read_file",
      "edit_file",
    ]);
    const results = toolResults(run.events);
    const byName = (name: string) =>
      results.find(
        (result) =>
          result.toolCallId ===
          toolCalls(run.events).find((call) => call.name === name)?.toolCallId,
      );
    expect(byName("list_directory")?.content).toContain("src/");
    expect(byName("grep_search")?.content).toContain("README.md");
    expect(byName("grep_search")?.content).toContain("src/app.ts");
    expect(byName("read_file")?.content).toContain("src/app.ts — lines 1–6 of 21");
    expect(byName("edit_file")?.content).toContain(
      "-const port = Number(process.env.TALLY_PORT ?? 3000);",
    );
    expect(byName("edit_file")?.content).toContain(
      "+const port = Number(process.env.TALLY_PORT ?? 8080);",
    );
  });

  it("runs the git family after the edit: status, diff, then a commit of that file only", async () => {
    const run = await runDemo({ families: [coreFamily, filesFamily, gitFamily] });
    expect(run.summary.toolErrors).toBe(0);
    const calls = toolCalls(run.events);
    expect(calls.map((call) => call.name).filter((name) => name.startsWith("git_"))).toEqual([
      "git_status",
      "git_diff",
      "git_commit",
    ]);
    const resultOf = (name: string) =>
      toolResults(run.events).find(
        (result) => result.toolCallId === calls.find((call) => call.name === name)?.toolCallId,
      );
    expect(resultOf("git_status")?.content).toMatch(/modified\s+src\/app\.ts/);
    expect(resultOf("git_diff")?.content).toContain(
      "+const port = Number(process.env.TALLY_PORT ?? 8080);",
    );
    expect(resultOf("git_commit")?.content).toMatch(
      /Committed [0-9a-f]{7,} on main: Default to port 8080/,
    );
  });

  it("runs the code family: find_symbol and find_references find the swapped calls, apply_patch fixes both, find_references re-checks, git_commit", async () => {
    const run = await runDemo({ families: [coreFamily, filesFamily, gitFamily, codeFamily] });
    expect(run.summary.toolErrors).toBe(0);
    const calls = toolCalls(run.events);
    const codeCalls = calls.filter((call) =>
      ["find_symbol", "find_references", "apply_patch"].includes(call.name),
    );
    expect(codeCalls.map((call) => call.name)).toEqual([
      "find_symbol",
      "find_references",
      "apply_patch",
      "find_references",
    ]);
    const resultOf = (id: string | undefined) =>
      toolResults(run.events).find((result) => result.toolCallId === id)?.content ?? "";
    const [symbol, before, patch, after] = codeCalls.map((call) => resultOf(call.toolCallId));
    expect(symbol).toContain(
      "src/percent.ts:6-8  export function percent(part: number, whole: number): number",
    );
    expect(before).toContain(
      "6 references to percent in 3 files of . (1 declaration, 2 imports). Syntactic, not type-resolved.",
    );
    expect(before).toContain(
      "in dailyShares │ return days.map((day) => ({ day: day.day, share: percent(total, day.hits) }));",
    );
    expect(before).toMatch(/in reportLine │ return .*percent\(week, today\)/);
    expect(before).toContain("in limitUsed │ return percent(count, limit);");
    expect(patch).toContain("Applied the patch to 2 files (+2 −2 lines).");
    expect(after).toContain("share: percent(day.hits, total)");
    expect(after).toContain("percent(today, week)}% of the week");
    expect(after).not.toContain("percent(total, day.hits)");
    const commits = calls.filter((call) => call.name === "git_commit");
    expect(commits).toHaveLength(2);
    expect(resultOf(commits[1]?.toolCallId)).toMatch(
      new RegExp(
        `Committed [0-9a-f]{7,} on main: ${PERCENT_COMMIT_MESSAGE.replace(/[()]/g, "\\$&")}`,
      ),
    );
    expect(run.summary.finalAnswer).toContain(
      "percent(part, whole) was called with the whole first",
    );
  });

  it("runs the office family: read_document opens the .docx, edit_document fixes a sentence, edit_sheet adds a row, both read back", async () => {
    const run = await runDemo({ families: [coreFamily, officeFamily] });
    expect(run.summary.toolErrors).toBe(0);
    const calls = toolCalls(run.events).filter(
      (call) => call.name !== "update_plan" && call.name !== "think",
    );
    expect(calls.map((call) => [call.name, call.arguments.path])).toEqual([
      ["read_document", WEEKLY_REPORT_PATH],
      ["edit_document", WEEKLY_REPORT_PATH],
      ["read_document", HITS_PATH],
      ["edit_sheet", HITS_PATH],
      ["read_document", WEEKLY_REPORT_PATH],
      ["read_document", HITS_PATH],
    ]);
    const resultOf = (id: string | undefined) =>
      toolResults(run.events).find((result) => result.toolCallId === id)?.content ?? "";
    const [report, edit, hits, sheet, reportAfter, hitsAfter] = calls.map((call) =>
      resultOf(call.toolCallId),
    );
    expect(report).toMatch(/^reports\/weekly-report\.docx — Word document, \d+ lines of Markdown/);
    expect(report).toContain("# Tally weekly report");
    expect(report).toContain("Week 49: the counter answered **1,240 hits**, 177 a day on average.");
    expect(report).toContain("Monday was the busiest day: 310 hits, 400% of the week.");
    expect(report).toContain("- Send a JSON content type from GET /count");
    expect(edit).toMatch(/^Edited reports\/weekly-report\.docx: replaced 1 occurrence/);
    expect(edit).toContain("Monday was the busiest day: 310 hits, 25% of the week.");
    expect(hits).toMatch(/sheet "Sheet1", 7 rows/);
    expect(hits).toContain("| 7 | Saturday | 100 |");
    expect(hits).not.toContain("Sunday");
    expect(sheet).toContain("Wrote 2 cells of Sheet1 in reports/hits.xlsx (1 new row)");
    // Read back: the sentence fixed, the bold total kept; Sunday's row after Saturday's.
    expect(reportAfter).toContain("Monday was the busiest day: 310 hits, 25% of the week.");
    expect(reportAfter).toContain("**1,240 hits**");
    expect(reportAfter).not.toContain("400%");
    expect(hitsAfter).toMatch(/sheet "Sheet1", 8 rows/);
    expect(hitsAfter).toContain("| 7 | Saturday | 100 |\n| 8 | Sunday | 60 |");
    expect(run.summary.finalAnswer).toContain("25% of the week, not 400%");
  });

  it("prepares every family's files before any family builds its tools: git's first commit holds the office documents", async () => {
    const run = await runDemo({ families: [coreFamily, filesFamily, gitFamily, officeFamily] });
    expect(run.summary.toolErrors).toBe(0);
    const calls = toolCalls(run.events);
    const status = toolResults(run.events).find(
      (result) =>
        result.toolCallId === calls.find((call) => call.name === "git_status")?.toolCallId,
    );
    expect(status?.content).toMatch(/modified\s+src\/app\.ts/);
    expect(status?.content).not.toContain("reports/");
    const listing = toolResults(run.events).find(
      (result) =>
        result.toolCallId === calls.find((call) => call.name === "list_directory")?.toolCallId,
    );
    expect(listing?.content).toContain("weekly-report.docx");
  });

  it("runs the web family: web_fetch reads the docs page through the forward option", async () => {
    const run = await runDemo({ families: [coreFamily, webFamily] });
    expect(run.summary.toolErrors).toBe(0);
    const calls = toolCalls(run.events);
    const fetchCall = calls.find((call) => call.name === "web_fetch");
    const result = toolResults(run.events).find(
      (item) => item.toolCallId === fetchCall?.toolCallId,
    );
    expect(result?.content).toContain("URL: https://docs.tally.example/guides/json-responses.html");
    expect(result?.content).toContain("Content-Type: application/json; charset=utf-8");
    expect(result?.content).not.toContain("On this site");
  });

  it("runs the knowledge loop: fetch a page → search_knowledge → read the cited lines; remember → recall", async () => {
    const run = await runDemo({ families: [coreFamily, filesFamily, webFamily, knowledgeFamily] });
    expect(run.summary.toolErrors).toBe(0);
    const calls = toolCalls(run.events);
    const results = toolResults(run.events);
    const resultOf = (name: string) => {
      const call = calls.find((item) => item.name === name);
      return results.find((item) => item.toolCallId === call?.toolCallId)?.content ?? "";
    };
    const fetched = resultOf("web_fetch");
    expect(fetched).toContain(`Saved as: ${SAVED_DOCS_PAGE.slice("sources/".length)}`);
    const search = resultOf("search_knowledge");
    const reference = `${SAVED_DOCS_PAGE}:10-17`;
    expect(search).toContain(`1. ${reference} — The header`);
    expect(search).toContain("Send `Content-Type: application/json; charset=utf-8` with the body:");
    // The scripted read_file opens exactly the cited span, and those lines hold the excerpt.
    const readCall = calls.filter((call) => call.name === "read_file").at(-1);
    expect(readCall?.arguments).toEqual({ path: SAVED_DOCS_PAGE, offset: 10, limit: 8 });
    const read = results.find((item) => item.toolCallId === readCall?.toolCallId)?.content ?? "";
    expect(read).toContain("lines 10–17 of");
    expect(read).toContain("Send `Content-Type: application/json; charset=utf-8` with the body:");
    expect(resultOf("remember")).toMatch(
      /Saved 1 passage \(74 characters\) as sha256-[0-9a-f]{16}/,
    );
    const recalled = resultOf("search_memory");
    expect(recalled).toContain('1 hit for "count content type"');
    expect(recalled).toContain(
      "GET /count must answer with Content-Type: application/json; charset=utf-8.",
    );
    expect(recalled).toContain("source https://docs.tally.example/guides/json-responses.html");
  });

  it("gives families a temporary copy of the sample workspace and deletes it afterwards", async () => {
    let files: string[] = [];
    const probe: DemoFamily = {
      name: "probe",
      createTools: ({ workspaceRoot }) => {
        files = readdirSync(workspaceRoot, { recursive: true, encoding: "utf8" }).sort();
        return [];
      },
      tasks: [],
      findings: [],
    };
    const run = await runDemo({ families: [coreFamily, probe] });
    expect(files).toEqual([
      "README.md",
      "notes",
      join("notes", "todo.md"),
      "src",
      join("src", "app.ts"),
      join("src", "percent.ts"),
      join("src", "report.ts"),
      join("src", "stats.ts"),
    ]);
    const start = run.events[0];
    expect(start?.type).toBe("start");
    if (start?.type !== "start") return;
    expect(start.workspaceRoot).not.toContain("apps/demo/workspace");
    expect(existsSync(start.workspaceRoot)).toBe(false);
  });
});

describe("runDemo (failures are reported, not thrown)", () => {
  it("counts a refused tool call as an error and shows its code and message", async () => {
    const model = createScriptedModel([
      {
        toolCalls: [
          {
            name: "update_plan",
            arguments: {
              plan: [
                { step: "a", status: "in_progress" },
                { step: "b", status: "in_progress" },
              ],
            },
          },
        ],
      },
      { text: "Sorry, the plan was refused.", toolCalls: [] },
    ]);
    const run = await runDemo({ families: [coreFamily], model, modelName: "test" });
    expect(run.summary.failure).toBeUndefined();
    expect(run.summary.toolErrors).toBe(1);
    const [result] = toolResults(run.events);
    expect(result?.success).toBe(false);
    expect(result?.errorCode).toBe("INVALID_INPUT");
    expect(result?.content).toContain('plan[0], plan[1] are all "in_progress"');
    expect(formatTranscript(run)).toContain("← update_plan ✗ INVALID_INPUT");
    expect(run.summary.finalPlan).toBeUndefined();
  });

  it("ends with a failure event when the model fails", async () => {
    const model = createScriptedModel([
      { toolCalls: [{ name: "think", arguments: { thought: "One turn only." } }] },
    ]);
    const run = await runDemo({ families: [coreFamily], model, modelName: "test" });
    expect(run.summary.failure).toMatch(/no response queued/);
    expect(run.events.at(-1)).toEqual({ type: "failure", message: run.summary.failure });
    expect(formatTranscript(run)).toContain("outcome:     stopped — ");
    expect(run.summary.finalAnswer).toBeUndefined();
  });
});
