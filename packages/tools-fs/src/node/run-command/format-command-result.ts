import { formatCount, formatTruncationMarker } from "@agentool/contract";
import type { CommandOutputData, RunCommandToolData } from "./run-command-data.js";

function quoteArgument(argument: string): string {
  return /^[\w@%+=:,./-]+$/.test(argument) ? argument : JSON.stringify(argument);
}

function formatStream(label: string, output: CommandOutputData): string[] {
  if (output.lines === 0) return [];
  const cuts = new Map(output.cut_lines.map((cut) => [cut.line, cut]));
  const show = (text: string, firstLine: number, count: number) =>
    count === 0
      ? []
      : text.split("\n").map((line, index) => {
          const cut = cuts.get(firstLine + index);
          if (cut === undefined) return line;
          const end = line.slice(cut.omitted_after);
          const marker = formatTruncationMarker({
            omitted: cut.omitted_characters,
            unit: "characters",
            next: `the middle of line ${cut.line} of ${label}; its last ${formatCount(end.length)} characters follow`,
          });
          return `${line.slice(0, cut.omitted_after)} ${marker} ${end}`;
        });
  if (output.omitted_lines === 0) return show(output.text, 1, output.lines);
  const tailStart = output.tail_start_line ?? output.lines + 1;
  const headCount = tailStart - 1 - output.omitted_lines;
  const marker = formatTruncationMarker({
    omitted: output.omitted_lines,
    unit: "lines",
    next: `${formatCount(output.omitted_bytes)} bytes of ${label} left out after line ${headCount}; narrow what the command prints (a filter, a count or limit flag, a narrower path, a quieter mode) to see them`,
  });
  return [
    ...show(output.text, 1, headCount),
    marker,
    ...show(output.tail, tailStart, output.lines - tailStart + 1),
  ];
}

/**
 * Renders a finished command for the model: a header with the exit code (saying that a non-zero
 * code means the command ran and failed), then stdout and stderr — their first and last lines
 * with the standard marker between when the middle was left out; a long line keeps its start and
 * its end with the marker between.
 *
 * @param data - the command's result
 * @returns model-facing text
 */
export function formatCommandResult(data: RunCommandToolData): string {
  const shown = data.command.map(quoteArgument).join(" ");
  let status: string;
  if (data.signal !== null) status = `ended by signal ${data.signal}`;
  else if (data.exit_code === 0) status = "exit code 0";
  else
    status = `exit code ${data.exit_code} — the command ran and reported a failure; read its output below`;
  const lines = [`$ ${shown}`, `(cwd: ${data.cwd}; ${status}; ${data.duration_ms} ms)`];
  const stdout = formatStream("stdout", data.stdout);
  const stderr = formatStream("stderr", data.stderr);
  if (stdout.length === 0 && stderr.length === 0) lines.push("(no output)");
  if (stdout.length > 0) lines.push(...(stderr.length > 0 ? ["stdout:"] : []), ...stdout);
  if (stderr.length > 0) lines.push("stderr:", ...stderr);
  if (data.stopped_background) {
    lines.push(
      "(The command left processes running in the background; they were stopped, and output they would have written later is not shown.)",
    );
  }
  return lines.join("\n");
}
