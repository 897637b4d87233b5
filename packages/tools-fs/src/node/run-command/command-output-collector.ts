import type { CommandOutputData } from "./run-command-data.js";

/** One line of a command's output, cleaned (ANSI codes stripped, `\r` rewrites collapsed). */
interface OutputLine {
  /** The line's text; a line over the cap keeps its first and last characters. */
  text: string;
  /** Characters left out of the line's middle. */
  omitted: number;
  /** Where in `text` the left-out characters were (the length of the kept start). */
  omittedAfter: number;
  /** Raw bytes the line took in the stream (its `\n`, escape codes and rewritten states included). */
  bytes: number;
}

enum Escape {
  None,
  Start,
  Intermediate,
  Csi,
  String,
  StringEscape,
}

/**
 * Reads one output stream as lines with bounded memory, whatever its size: the first
 * `maxHeadLines` and the last `maxTailLines` lines are kept (a line over `maxLineCharacters`
 * keeps its first and last characters, half the cap each),
 * everything else is counted exactly. ANSI escape sequences (colours, cursor moves, OSC titles
 * and links) are stripped; a line rewritten with `\r` (a progress bar) keeps only its last state;
 * a final line without `\n` is kept.
 *
 * @internal
 */
export class CommandOutputCollector {
  private readonly decoder = new TextDecoder("utf-8");
  private readonly head: OutputLine[] = [];
  private readonly tail: OutputLine[] = [];
  private tailStart = 0;
  /** Raw bytes of the stream. */
  bytes = 0;
  /** Lines of the stream (a final line without `\n` counts). */
  lines = 0;
  private gapLines = 0;
  private gapBytes = 0;
  /** The current line's first characters (up to the line cap). */
  private segment = "";
  /** The current line's last characters (at least half the cap once it is longer). */
  private segmentEnd = "";
  private segmentLength = 0;
  private pendingCr = false;
  private lineBytes = 0;
  private escape = Escape.None;

  constructor(
    private readonly maxHeadLines: number,
    private readonly maxTailLines: number,
    private readonly maxLineCharacters: number,
  ) {}

  /** Adds a chunk of raw output. */
  push(chunk: Uint8Array): void {
    this.bytes += chunk.length;
    let from = 0;
    let newline = chunk.indexOf(10);
    while (newline !== -1) {
      this.lineBytes += newline - from + 1;
      this.feed(this.decoder.decode(chunk.subarray(from, newline), { stream: true }));
      this.endLine();
      from = newline + 1;
      newline = chunk.indexOf(10, from);
    }
    if (from < chunk.length) {
      this.lineBytes += chunk.length - from;
      this.feed(this.decoder.decode(chunk.subarray(from), { stream: true }));
    }
  }

  /** Ends the stream: a last line without `\n` is kept. */
  finish(): void {
    this.feed(this.decoder.decode());
    if (this.lineBytes > 0) this.endLine();
  }

  private append(text: string): void {
    if (text.length === 0) return;
    if (this.pendingCr) {
      // A `\r` followed by more text rewrites the line: keep only its new state.
      this.segment = "";
      this.segmentEnd = "";
      this.segmentLength = 0;
      this.pendingCr = false;
    }
    this.segmentLength += text.length;
    if (this.segment.length < this.maxLineCharacters) {
      this.segment += text.slice(0, this.maxLineCharacters - this.segment.length);
    }
    if (this.segmentLength > this.maxLineCharacters) {
      // Keep the line's end too, trimmed only now and then so a line of many small pieces stays linear.
      const keep = this.endCharacters();
      this.segmentEnd = text.length >= keep ? text.slice(-keep) : this.segmentEnd + text;
      if (this.segmentEnd.length > 2 * keep) this.segmentEnd = this.segmentEnd.slice(-keep);
    } else {
      this.segmentEnd = this.segment;
    }
  }

  /** Characters a line over the cap keeps from its end. */
  private endCharacters(): number {
    return Math.floor(this.maxLineCharacters / 2);
  }

  /** Text without `\n`: strips escape sequences, collapses `\r` rewrites. */
  private feed(text: string): void {
    let run = 0;
    for (let index = 0; index < text.length; index += 1) {
      const code = text.charCodeAt(index);
      if (this.escape !== Escape.None) {
        run = index + 1;
        switch (this.escape) {
          case Escape.Start:
            if (code === 0x5b) this.escape = Escape.Csi;
            else if (
              code === 0x5d ||
              code === 0x50 ||
              code === 0x58 ||
              code === 0x5e ||
              code === 0x5f
            )
              this.escape = Escape.String;
            else if (code >= 0x20 && code <= 0x2f) this.escape = Escape.Intermediate;
            else this.escape = Escape.None;
            break;
          case Escape.Intermediate:
            if (code < 0x20 || code > 0x2f) this.escape = Escape.None;
            break;
          case Escape.Csi:
            if (code >= 0x40 && code <= 0x7e) this.escape = Escape.None;
            else if (code < 0x20 || code > 0x3f) {
              // Not a CSI after all: drop the sequence, keep this character.
              this.escape = Escape.None;
              run = index;
              index -= 1;
            }
            break;
          case Escape.String:
            if (code === 0x07) this.escape = Escape.None;
            else if (code === 0x1b) this.escape = Escape.StringEscape;
            break;
          case Escape.StringEscape:
            this.escape = code === 0x5c ? Escape.None : Escape.String;
            break;
        }
        continue;
      }
      if (code === 0x1b || code === 0x0d || code === 0x07) {
        this.append(text.slice(run, index));
        run = index + 1;
        if (code === 0x1b) this.escape = Escape.Start;
        else if (code === 0x0d) this.pendingCr = true;
      }
    }
    if (this.escape === Escape.None) this.append(text.slice(run));
  }

  private endLine(): void {
    // A `\r` right before the `\n` is a CRLF line ending, not a rewrite.
    this.pendingCr = false;
    this.escape = Escape.None;
    const line = this.cutLine();
    this.lines += 1;
    this.segment = "";
    this.segmentEnd = "";
    this.segmentLength = 0;
    this.lineBytes = 0;
    if (this.head.length < this.maxHeadLines) {
      this.head.push(line);
      return;
    }
    if (this.tail.length < this.maxTailLines) {
      this.tail.push(line);
      return;
    }
    // The ring is full: the oldest tail line falls into the gap.
    const dropped = this.tail[this.tailStart] as OutputLine;
    this.gapLines += 1;
    this.gapBytes += dropped.bytes;
    this.tail[this.tailStart] = line;
    this.tailStart = (this.tailStart + 1) % this.maxTailLines;
  }

  /** The current line as kept: whole, or its first and last characters (never half a surrogate pair). */
  private cutLine(): OutputLine {
    if (this.segmentLength <= this.maxLineCharacters) {
      return { text: this.segment, omitted: 0, omittedAfter: 0, bytes: this.lineBytes };
    }
    let start = this.segment.slice(0, this.maxLineCharacters - this.endCharacters());
    const last = start.charCodeAt(start.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) start = start.slice(0, -1);
    let end = this.segmentEnd.slice(-this.endCharacters());
    const first = end.charCodeAt(0);
    if (first >= 0xdc00 && first <= 0xdfff) end = end.slice(1);
    return {
      text: start + end,
      omitted: this.segmentLength - start.length - end.length,
      omittedAfter: start.length,
      bytes: this.lineBytes,
    };
  }

  private tailLines(): OutputLine[] {
    return [...this.tail.slice(this.tailStart), ...this.tail.slice(0, this.tailStart)];
  }

  /** What showing everything kept would cost, in characters (`Infinity` when lines were dropped). */
  cost(): number {
    if (this.gapLines > 0) return Number.POSITIVE_INFINITY;
    return [...this.head, ...this.tail].reduce((sum, line) => sum + lineCost(line), 0);
  }

  /**
   * The stream as shown within a character budget: the first lines (about half the budget) and
   * the last lines, with exact counts of what lies between.
   */
  arrange(budget: number): CommandOutputData {
    const lines = [...this.head, ...this.tailLines()];
    const headCount = this.head.length;
    let first = 0;
    let used = 0;
    const total = lines.reduce((sum, line) => sum + lineCost(line), 0);
    let last = lines.length;
    if (this.gapLines > 0 || total > budget) {
      const headBudget = Math.floor(budget / 2);
      while (first < headCount && used + lineCost(lines[first] as OutputLine) <= headBudget) {
        used += lineCost(lines[first] as OutputLine);
        first += 1;
      }
      const tailFloor = this.gapLines > 0 ? Math.max(first, headCount) : first;
      while (last > tailFloor && used + lineCost(lines[last - 1] as OutputLine) <= budget) {
        used += lineCost(lines[last - 1] as OutputLine);
        last -= 1;
      }
    } else {
      first = lines.length;
      last = lines.length;
    }
    const kept = lines.slice(0, first);
    const ending = lines.slice(last);
    const middle = lines.slice(first, last);
    const omittedLines = this.gapLines + middle.length;
    const omittedBytes = this.gapBytes + middle.reduce((sum, line) => sum + line.bytes, 0);
    const tailFirstLine = this.lines - ending.length + 1;
    const cutLines = [
      ...kept.map((line, index) => ({
        line: index + 1,
        omitted_characters: line.omitted,
        omitted_after: line.omittedAfter,
      })),
      ...ending.map((line, index) => ({
        line: tailFirstLine + index,
        omitted_characters: line.omitted,
        omitted_after: line.omittedAfter,
      })),
    ].filter((cut) => cut.omitted_characters > 0);
    const data: CommandOutputData = {
      text: kept.map((line) => line.text).join("\n"),
      tail: ending.map((line) => line.text).join("\n"),
      bytes: this.bytes,
      lines: this.lines,
      omitted_lines: omittedLines,
      omitted_bytes: omittedBytes,
      cut_lines: cutLines,
      truncated: omittedLines > 0 || cutLines.length > 0,
    };
    if (omittedLines > 0) data.tail_start_line = tailFirstLine;
    return data;
  }
}

/** Characters a line costs in the rendered output (with room for a cut line's marker). */
function lineCost(line: OutputLine): number {
  return line.text.length + 1 + (line.omitted > 0 ? 80 : 0);
}
