import { createInterface, type Interface } from "node:readline";
import type {
  AskUserQuestion,
  ConfirmQuestion,
  InteractionContext,
  InteractionHandler,
  UserAnswer,
  UserNotification,
  UserQuestion,
} from "../interaction-handler.js";

/** Options of {@link createTerminalHandler}. */
export interface TerminalHandlerOptions {
  /** Where answers come from. Default `process.stdin`. */
  input?: NodeJS.ReadableStream;
  /** Where questions and notifications are written. Default `process.stdout`. */
  output?: NodeJS.WritableStream;
  /** How many times to ask again after an answer that is not a valid choice. Default {@link DEFAULT_TERMINAL_RETRIES} (3). */
  retries?: number;
}

/** Default number of times the terminal handler asks again after an invalid choice. */
export const DEFAULT_TERMINAL_RETRIES = 3;

/** A handler that asks on a terminal; `close()` releases the input stream. */
export interface TerminalHandler extends InteractionHandler {
  /** Asks on the terminal: numbered options, multi-select with comma-separated numbers. */
  ask(question: UserQuestion, context: InteractionContext): Promise<UserAnswer>;
  /** Writes `[level] message` on the output. */
  notify(notification: UserNotification, context: InteractionContext): void;
  /** Stops reading the input. Later questions get no answer. */
  close(): void;
}

type LineWaiter = (line: string | undefined) => void;

const NUMBERS = /^\d+(?:\s*[,\s]\s*\d+)*$/;

// C0 controls but tab and line feed, DEL, and the C1 set (0x80–0x9f: CSI, OSC, ST… in one byte).
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are what is escaped
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * Makes text safe to write on a terminal: every C0 control character but `\n` and `\t` becomes
 * its visible Control Picture (`\x1b` → `␛`, `\r` → `␍`, `\x07` → `␇`), DEL becomes `␡`, and
 * each C1 control becomes `\x9b`-style text. So a model's text cannot write the clipboard (OSC
 * 52), clear or repaint the screen, move the cursor, hide what follows (SGR 8, a fake password
 * prompt) or retitle the window. Printable text, including every non-ASCII letter, is unchanged.
 *
 * @param text - text from the model
 * @returns the text with control characters rendered visibly
 * @example
 * escapeTerminalText("a\u001b[2Jb\tc\n"); // "a␛[2Jb\tc\n"
 */
export function escapeTerminalText(text: string): string {
  return text.replace(CONTROL_CHARACTERS, (character) => {
    const code = character.charCodeAt(0);
    if (code < 0x20) return String.fromCharCode(0x2400 + code);
    if (code === 0x7f) return "\u2421";
    return `\\x${code.toString(16)}`;
  });
}

/**
 * Creates a handler for command-line hosts: questions are written to the output (options
 * numbered), answers read from the input line by line with `node:readline`. For `ask_user` the
 * person types an option's number (several numbers separated by commas when `allow_multiple`),
 * or any other text as their own answer; an empty line is no answer. For `confirm` they type
 * y/yes or n/no; an empty line takes the default. End of input means no answer. Works with a
 * TTY and with piped input (lines typed ahead are queued); the input is paused between
 * questions, so the handler does not keep the process alive.
 *
 * @param options - input/output streams and the number of re-asks after an invalid choice
 * @returns the handler
 * @example
 * const handler = createTerminalHandler();
 * const tools = createInteractTools({ handler });
 * // … run the agent …
 * handler.close();
 */
export function createTerminalHandler(options: TerminalHandlerOptions = {}): TerminalHandler {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const retries = options.retries ?? DEFAULT_TERMINAL_RETRIES;
  if (!Number.isInteger(retries) || retries < 0) {
    throw new TypeError(`createTerminalHandler: retries must be an integer ≥ 0, got ${retries}.`);
  }
  const lines: string[] = [];
  const waiters: LineWaiter[] = [];
  let reader: Interface | undefined;
  let ended = false;

  function write(text: string): void {
    output.write(escapeTerminalText(text));
  }

  function start(): Interface {
    if (reader !== undefined) return reader;
    const terminal =
      (input as { isTTY?: boolean }).isTTY === true &&
      (output as { isTTY?: boolean }).isTTY === true;
    reader = createInterface({
      input,
      ...(terminal ? { output, terminal: true } : { terminal: false }),
    });
    reader.on("line", (line) => {
      const waiter = waiters.shift();
      if (waiter !== undefined) waiter(line);
      else lines.push(line);
      if (waiters.length === 0) reader?.pause();
    });
    reader.on("close", () => {
      ended = true;
      for (const waiter of waiters.splice(0)) waiter(undefined);
    });
    return reader;
  }

  function readLine(signal: AbortSignal): Promise<string | undefined> {
    const queued = lines.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (ended || signal.aborted) return Promise.resolve(undefined);
    const current = start();
    return new Promise((resolve) => {
      const onAbort = () => {
        const index = waiters.indexOf(waiter);
        if (index >= 0) waiters.splice(index, 1);
        if (waiters.length === 0) current.pause();
        write("\n(no longer waiting for an answer)\n");
        resolve(undefined);
      };
      const waiter: LineWaiter = (line) => {
        signal.removeEventListener("abort", onAbort);
        resolve(line);
      };
      waiters.push(waiter);
      signal.addEventListener("abort", onAbort, { once: true });
      current.resume();
    });
  }

  async function askQuestion(question: AskUserQuestion, signal: AbortSignal): Promise<UserAnswer> {
    const count = question.options.length;
    const lines = [`\n? ${question.question}`];
    question.options.forEach((option, index) => {
      lines.push(
        `  ${index + 1}. ${option.label}${option.description === undefined ? "" : ` — ${option.description}`}`,
      );
    });
    if (count > 0) {
      lines.push(
        question.allow_multiple
          ? `  Type numbers separated by commas (1-${count}), or your own answer:`
          : `  Type a number (1-${count}), or your own answer:`,
      );
    }
    write(`${lines.join("\n")}\n> `);
    for (let attempt = 0; ; attempt++) {
      const line = await readLine(signal);
      if (line === undefined) return undefined;
      const text = line.trim();
      if (count === 0 || !NUMBERS.test(text)) return text;
      const picked = text.split(/[\s,]+/).map(Number);
      const problem = picked.some((number) => number < 1 || number > count)
        ? `Choose between 1 and ${count}.`
        : !question.allow_multiple && picked.length > 1
          ? "Choose one option."
          : undefined;
      if (problem === undefined) {
        const labels = [...new Set(picked)].map(
          (number) => question.options[number - 1]?.label ?? "",
        );
        return question.allow_multiple ? labels : labels[0];
      }
      if (attempt >= retries) return text;
      write(`${problem}\n> `);
    }
  }

  async function confirmQuestion(
    question: ConfirmQuestion,
    signal: AbortSignal,
  ): Promise<UserAnswer> {
    write(`\n? ${question.message} ${question.default ? "[Y/n]" : "[y/N]"} `);
    for (let attempt = 0; ; attempt++) {
      const line = await readLine(signal);
      if (line === undefined) return undefined;
      const text = line.trim().toLowerCase();
      if (text === "") return undefined;
      if (text === "y" || text === "yes") return true;
      if (text === "n" || text === "no") return false;
      if (attempt >= retries) return undefined;
      write("Please answer y or n. ");
    }
  }

  return {
    ask(question, context) {
      return question.type === "confirm"
        ? confirmQuestion(question, context.signal)
        : askQuestion(question, context.signal);
    },
    notify(notification) {
      write(`[${notification.level}] ${notification.message}\n`);
    },
    close() {
      ended = true;
      reader?.close();
      for (const waiter of waiters.splice(0)) waiter(undefined);
    },
  };
}
