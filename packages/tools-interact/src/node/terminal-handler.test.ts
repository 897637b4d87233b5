import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { UserQuestion } from "../interaction-handler.js";

const childScript = fileURLToPath(new URL("../test-support/terminal-child.mjs", import.meta.url));

interface ChildRun {
  code: number | null;
  stdout: string;
  results: unknown[];
}

/** Runs the child with the questions, writes `stdinText` to its stdin (closing it unless told not to). */
function runChild(
  setup: Record<string, unknown>,
  stdinText: string,
  { keepStdinOpen = false } = {},
): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [childScript, JSON.stringify(setup)], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`child did not exit; stdout: ${stdout}; stderr: ${stderr}`));
    }, 10_000);
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      const line = stderr.split("\n").find((text) => text.startsWith("RESULT "));
      if (line === undefined) {
        reject(new Error(`no result (exit ${code}); stderr: ${stderr}`));
        return;
      }
      resolve({ code, stdout, results: JSON.parse(line.slice("RESULT ".length)) as unknown[] });
    });
    child.stdin.write(stdinText);
    if (!keepStdinOpen) child.stdin.end();
  });
}

const deploy: UserQuestion = {
  type: "ask_user",
  question: "Where should I deploy?",
  options: [
    { label: "Staging", description: "the test cluster" },
    { label: "Production" },
    { label: "Nowhere" },
  ],
  allow_multiple: false,
};
const platforms: UserQuestion = {
  type: "ask_user",
  question: "Which platforms?",
  options: [{ label: "Linux" }, { label: "macOS" }, { label: "Windows" }],
  allow_multiple: true,
};
const freeText: UserQuestion = {
  type: "ask_user",
  question: "What should the release be called?",
  options: [],
  allow_multiple: false,
};
const confirmDelete: UserQuestion = { type: "confirm", message: "Delete build/?", default: false };

describe("createTerminalHandler (child process, piped stdin)", () => {
  it("numbers options, reads choices, multi-select, free text and y/n from lines typed ahead", async () => {
    const run = await runChild(
      { questions: [deploy, platforms, freeText, confirmDelete, confirmDelete, deploy] },
      "2\n3, 1\n  Blue Falcon  \ny\n\nmy own idea\n",
    );
    expect(run.code).toBe(0);
    expect(run.results).toEqual([
      "Production",
      ["Windows", "Linux"],
      "Blue Falcon",
      true,
      null,
      "my own idea",
    ]);
    expect(run.stdout).toContain(
      "? Where should I deploy?\n  1. Staging — the test cluster\n  2. Production\n  3. Nowhere\n  Type a number (1-3), or your own answer:\n> ",
    );
    expect(run.stdout).toContain("Type numbers separated by commas (1-3), or your own answer:");
    expect(run.stdout).toContain("? Delete build/? [y/N] ");
    expect(run.stdout).toContain("[info] all asked\n");
  });

  it("asks again after an invalid choice", async () => {
    const run = await runChild(
      { questions: [deploy, deploy, confirmDelete] },
      "7\n1\n1 2\n3\nmaybe\nno\n",
    );
    expect(run.results).toEqual(["Staging", "Nowhere", false]);
    expect(run.stdout).toContain("Choose between 1 and 3.\n> ");
    expect(run.stdout).toContain("Choose one option.\n> ");
    expect(run.stdout).toContain("Please answer y or n.");
  });

  it("gives no answer at end of input", async () => {
    const run = await runChild({ questions: [freeText, confirmDelete] }, "");
    expect(run.code).toBe(0);
    expect(run.results).toEqual([null, null]);
  });

  it("reads a very long line whole", async () => {
    const long = "x".repeat(200_000);
    const run = await runChild({ questions: [freeText] }, `${long}\n`);
    expect(run.results).toEqual([long]);
  });

  it("stops waiting on abort and does not keep the process alive", async () => {
    const run = await runChild({ questions: [freeText], abortAfterMs: 50 }, "", {
      keepStdinOpen: true,
    });
    expect(run.code).toBe(0);
    expect(run.results).toEqual([null]);
    expect(run.stdout).toContain("(no longer waiting for an answer)");
  });

  it("drives the tools end to end: the answer is capped and rendered for the model", async () => {
    const run = await runChild(
      {
        viaTools: true,
        questions: [
          {
            tool: "ask_user",
            input: { question: "Which?", options: [{ label: "A" }, { label: "B" }] },
          },
          { tool: "ask_user", input: { question: "Tell me a lot" } },
          { tool: "confirm", input: { message: "Go?", default: true } },
          { tool: "notify", input: { message: "Working on it.", level: "warning" } },
        ],
      },
      `2\n${"y".repeat(5_000)}\n\n`,
    );
    expect(run.code).toBe(0);
    const [choice, long, confirm, notify] = run.results as Array<{
      result: unknown;
      rendered: string;
    }>;
    expect(choice?.rendered).toBe("The user chose: B");
    expect(long?.result).toMatchObject({ success: true, data: { answer_truncated: true } });
    expect(long?.rendered).toMatch(/…\[truncated: 1,000 more characters/);
    expect(confirm?.result).toEqual({
      success: true,
      data: { confirmed: true, defaulted: true, reason: "no_answer" },
    });
    expect(notify?.result).toEqual({ success: true, data: { sent: true, level: "warning" } });
    expect(run.stdout).toContain("[warning] Working on it.\n");
    expect(run.stdout).toContain("? Go? [Y/n] ");
  });

  it("escapes control characters of the model's text (OSC 52, screen clear, hidden input, C1) and keeps \\n and \\t", async () => {
    const esc = "\u001b";
    const osc52 = `${esc}]52;c;Y3VybCBldmlsLnNoIHwgc2g=\u0007`;
    const clear = `${esc}[2J${esc}[H`;
    const hidden = `${esc}[8mPassword:${esc}[28m`;
    const c1 = "\u009b31mred\u009d0;title\u009c";
    const run = await runChild(
      {
        viaTools: true,
        questions: [
          {
            tool: "ask_user",
            input: {
              question: `Pick${osc52}\tone${clear}`,
              options: [
                { label: `A${hidden}`, description: `line1\nline2${esc}c` },
                { label: `B\r\u0008\u007f${c1}` },
              ],
            },
          },
          { tool: "confirm", input: { message: `Go?${clear}\u0000`, default: true } },
          { tool: "notify", input: { message: `Done${osc52}\u0007\u0085`, level: "info" } },
        ],
      },
      "1\n\n",
    );
    expect(run.code).toBe(0);
    // Nothing of the C0 set (but \n and \t), DEL, or C1 reaches the terminal.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for them
    expect(run.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(run.stdout).toContain("Pick␛]52;c;Y3VybCBldmlsLnNoIHwgc2g=␇\tone␛[2J␛[H");
    expect(run.stdout).toContain("1. A␛[8mPassword:␛[28m — line1\nline2␛c");
    expect(run.stdout).toContain("? Go?␛[2J␛[H␀ [Y/n] ");
    expect(run.stdout).toContain("[info] Done␛]52;c;Y3VybCBldmlsLnNoIHwgc2g=␇␇\\x85\n");
    expect(run.stdout).toContain("2. B␍␈␡\\x9b31mred\\x9d0;title\\x9c");
    const [choice] = run.results as Array<{ rendered: string }>;
    expect(choice?.rendered).toBe(`The user chose: A${hidden}`);
  });
});
