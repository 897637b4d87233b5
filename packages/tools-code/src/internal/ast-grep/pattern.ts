import { ToolFailureError } from "@agentool/contract";
import type { AstGrepModule, AstLanguage } from "./languages.js";

/** One metavariable of a pattern. */
export interface Metavariable {
  /** Its name without the dollars (`ARGS`). */
  name: string;
  /** Whether it captures a list of nodes (`$$$ARGS`). */
  multiple: boolean;
}

const METAVARIABLE = /\$\$\$([A-Z_][A-Z0-9_]*)|\$\$?([A-Z_][A-Z0-9_]*)/g;

/** The grammars whose `$` starts an identifier: a pattern there parses as ordinary code. */
const DOLLAR_IDENTIFIER_GRAMMARS = new Set(["TypeScript", "Tsx", "JavaScript"]);

/**
 * The capturing metavariables of a pattern or template, in order of first appearance: `$NAME`,
 * `$$NAME` (one node, unnamed ones too) and `$$$NAME` (a list). Names starting with `_` (`$_`,
 * `$$$_REST`) match without capturing and are left out, as in ast-grep.
 *
 * @param text - a pattern or a rewrite template
 * @returns the metavariables
 */
export function metavariablesOf(text: string): Metavariable[] {
  const found = new Map<string, Metavariable>();
  for (const match of text.matchAll(METAVARIABLE)) {
    const multiple = match[1] !== undefined;
    const name = (match[1] ?? match[2]) as string;
    if (name.startsWith("_") || found.has(name)) continue;
    found.set(name, { name, multiple });
  }
  return [...found.values()];
}

const PATTERN_HINT =
  "A pattern is code of the language with metavariables: one complete syntax node (an expression, a statement, a declaration), e.g. 'console.log($$$ARGS)' or 'function $NAME($$$PARAMS) { $$$BODY }'. $NAME matches one node, $$$NAME a list (arguments, statements); $_ matches without capturing.";

function invalidPattern(message: string, hint = PATTERN_HINT): ToolFailureError {
  return new ToolFailureError("INVALID_INPUT", message, { hint });
}

/**
 * Checks a pattern before any file is read: ast-grep compiles it (its own message on failure: no
 * node, several nodes, a lone `$$$`), a lone metavariable (which matches every node of every
 * file) is refused, and in JavaScript and TypeScript — where `$NAME` is an ordinary identifier,
 * so a pattern parses as code — a pattern that does not parse (`foo(`, `x =>`) is refused with
 * the place it breaks.
 *
 * @param napi - the loaded `@ast-grep/napi`
 * @param language - the resolved language
 * @param pattern - the model's pattern
 * @throws ToolFailureError `INVALID_INPUT` with ast-grep's message and a hint
 */
export function checkPattern(napi: AstGrepModule, language: AstLanguage, pattern: string): void {
  const trimmed = pattern.trim();
  if (/^\${1,3}[A-Z_][A-Z0-9_]*;?$/.test(trimmed)) {
    throw invalidPattern(
      `pattern ${JSON.stringify(pattern)} is a lone metavariable: it would match every node of every file.`,
      "Give the structure around it, e.g. 'console.log($A)', '$OBJ.$METHOD($$$ARGS)' or 'await $CALL'.",
    );
  }
  for (const { grammar } of language.grammars) {
    try {
      napi.parse(grammar, "").root().findAll(pattern);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw invalidPattern(`ast-grep cannot use the pattern: ${message}`);
    }
    if (!DOLLAR_IDENTIFIER_GRAMMARS.has(grammar)) continue;
    const broken = napi
      .parse(grammar, pattern)
      .root()
      .find({ rule: { kind: "ERROR" } });
    if (broken !== null) {
      const range = broken.range();
      throw invalidPattern(
        `pattern ${JSON.stringify(pattern)} is not complete ${language.name} syntax: it does not parse at line ${range.start.line + 1}, column ${range.start.column + 1} (${JSON.stringify(broken.text().slice(0, 60))}), so it would match nothing.`,
        `${PATTERN_HINT} Close every bracket. A class member or an object property cannot stand alone: search a call to it ('$OBJ.run($$$ARGS)') or the expression it holds instead.`,
      );
    }
  }
}
