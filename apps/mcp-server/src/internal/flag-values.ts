import { parseArgs } from "node:util";
import { FLAGS } from "../flags.js";
import { UsageError } from "../usage-error.js";
import { closestMatch } from "./closest-match.js";

const FLAG_NAMES = FLAGS.map((flag) => `--${flag.name}`);

/**
 * `" Did you mean <closest>?"`, or `""` when no candidate is close.
 *
 * @param word - what was typed
 * @param candidates - the known words
 * @returns the suggestion, with a leading space
 */
export function typo(word: string, candidates: readonly string[]): string {
  const closest = closestMatch(word, candidates);
  return closest === undefined ? "" : ` Did you mean ${closest}?`;
}

/** The flags of a command line, read token by token: the values of each flag and the switches given. */
export class FlagValues {
  readonly #values = new Map<string, string[]>();
  readonly #switches = new Set<string>();

  /**
   * Reads `argv` with `node:util` `parseArgs`: an unknown flag (with the closest known one), a
   * positional argument, a switch with a value, a missing or empty value and a flag given twice
   * that may be given once are refused.
   *
   * @param argv - the arguments after the program name
   * @throws UsageError for a token that cannot be read
   */
  constructor(argv: readonly string[]) {
    const options = Object.fromEntries(
      FLAGS.map((flag) => [
        flag.name,
        {
          type: flag.value === undefined ? ("boolean" as const) : ("string" as const),
          multiple: true,
          ...(flag.short === undefined ? {} : { short: flag.short }),
        },
      ]),
    );
    const { tokens } = parseArgs({
      args: [...argv],
      options,
      strict: false,
      allowPositionals: true,
      tokens: true,
    });
    for (const token of tokens) {
      if (token.kind === "option-terminator") {
        throw new UsageError("agentool-mcp takes no arguments after --; pass flags only.");
      }
      if (token.kind === "positional") {
        throw new UsageError(
          `Unexpected argument "${token.value}": agentool-mcp takes flags only (e.g. --root ${token.value}).`,
        );
      }
      this.#take(token);
    }
  }

  /** The first value of a flag. */
  one(name: string): string | undefined {
    return this.#values.get(name)?.[0];
  }

  /** Every value of a flag (empty when it was not given). */
  many(name: string): string[] {
    return this.#values.get(name) ?? [];
  }

  /** Whether a flag with a value was given. */
  hasValue(name: string): boolean {
    return this.#values.has(name);
  }

  /** Whether a switch was given. */
  hasSwitch(name: string): boolean {
    return this.#switches.has(name);
  }

  #take(token: {
    name: string;
    rawName: string;
    value?: string | undefined;
    inlineValue?: boolean | undefined;
  }): void {
    const flag = FLAGS.find((candidate) => candidate.name === token.name);
    if (flag === undefined) {
      const shown = token.rawName.startsWith("--") ? token.rawName : `--${token.name}`;
      throw new UsageError(`Unknown flag ${token.rawName}.${typo(shown, FLAG_NAMES)}`);
    }
    if (flag.value === undefined) {
      if (token.value !== undefined) {
        throw new UsageError(
          `--${flag.name} takes no value (got "--${flag.name}=${token.value}").`,
        );
      }
      this.#switches.add(flag.name);
      return;
    }
    if (
      token.value === undefined ||
      (!token.inlineValue && token.value.startsWith("--") && token.value.length > 2)
    ) {
      const got = token.value === undefined ? "" : ` (got the flag ${token.value} instead)`;
      throw new UsageError(`--${flag.name} needs a value: --${flag.name} ${flag.value}${got}.`);
    }
    if (token.value.length === 0) {
      throw new UsageError(`--${flag.name} needs a non-empty value: --${flag.name} ${flag.value}.`);
    }
    const list = this.#values.get(flag.name) ?? [];
    if (list.length > 0 && !flag.repeatable && flag.name !== "families") {
      throw new UsageError(
        `--${flag.name} was given twice ("${list[0]}" and "${token.value}"); give it once.`,
      );
    }
    list.push(token.value);
    this.#values.set(flag.name, list);
  }
}
