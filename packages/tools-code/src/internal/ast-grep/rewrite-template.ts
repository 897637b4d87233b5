import { ToolFailureError } from "@agentool/contract";
import type { Edit, SgNode } from "@ast-grep/napi";
import type { AstGrepModule } from "./languages.js";
import { captureText } from "./match-record.js";
import { type Metavariable, metavariablesOf } from "./pattern.js";

const REFERENCE = /\$\$\$([A-Z_][A-Z0-9_]*)|\$\$?([A-Z_][A-Z0-9_]*)/g;

/**
 * Checks that a rewrite template names only metavariables the pattern captures (a name the
 * pattern does not bind would be written out literally, `$NAME` in the code).
 *
 * @param pattern - the pattern
 * @param template - the rewrite template
 * @throws ToolFailureError `INVALID_INPUT` naming the unknown ones and the known ones
 */
export function checkTemplate(pattern: string, template: string): void {
  const known = new Set(metavariablesOf(pattern).map((metavariable) => metavariable.name));
  const unknown = metavariablesOf(template).filter((metavariable) => !known.has(metavariable.name));
  if (unknown.length === 0) return;
  const names = unknown.map((metavariable) => `$${metavariable.name}`).join(", ");
  throw new ToolFailureError(
    "INVALID_INPUT",
    `rewrite uses ${names}, which the pattern does not capture.`,
    {
      hint:
        known.size === 0
          ? "The pattern captures nothing: add metavariables to it ($NAME, $$$NAME) to reuse matched code, or write the rewrite without them."
          : `The pattern captures ${[...known].map((name) => `$${name}`).join(", ")}; use those names (a list capture is written $$$NAME in both).`,
    },
  );
}

function leadingWhitespace(line: string): string {
  return /^[ \t]*/.exec(line)?.[0] ?? "";
}

function lineOf(text: string, index: number): string {
  const start = text.lastIndexOf("\n", index - 1) + 1;
  const end = text.indexOf("\n", index);
  return text.slice(start, end === -1 ? text.length : end);
}

/** Moves the lines after the first from one indentation to another (blank lines left blank). */
function reindent(value: string, from: string, to: string): string {
  const lines = value.split("\n");
  return lines
    .map((line, index) => {
      if (index === 0 || line.trim().length === 0) return line;
      return `${to}${line.startsWith(from) ? line.slice(from.length) : line.trimStart()}`;
    })
    .join("\n");
}

/**
 * Writes a template for one match, as ast-grep's `fix` does: `$NAME` becomes the node it
 * captured, `$$$NAME` the list it captured (from its first node to its last, separators
 * included; nothing for an empty list); a multi-line capture keeps its inner indentation
 * relative to where the template puts it; the template's own lines after the first are indented
 * like the line the match starts on.
 *
 * @param template - the rewrite template
 * @param node - the matched node
 * @param text - the file's text
 * @returns the replacement text
 */
export function renderTemplate(template: string, node: SgNode, text: string): string {
  const filled = template.replace(
    REFERENCE,
    (whole, multi: string | undefined, single: string | undefined, offset: number) => {
      const metavariable: Metavariable = {
        name: (multi ?? single) as string,
        multiple: multi !== undefined,
      };
      if (metavariable.name.startsWith("_")) return whole;
      const captured = captureText(node, metavariable, text);
      if (captured === undefined) return whole;
      if (!captured.text.includes("\n") || captured.node === undefined) return captured.text;
      const from = leadingWhitespace(lineOf(text, captured.node.range().start.index));
      const to = leadingWhitespace(lineOf(template, offset));
      return reindent(captured.text, from, to);
    },
  );
  const indent = leadingWhitespace(lineOf(text, node.range().start.index));
  return indent.length === 0 ? filled : reindent(filled, "", indent);
}

/** The outcome of rewriting one file. */
export interface FileRewrite {
  /** The new text. */
  text: string;
  /** Matches replaced (a match inside another one's range is left to the outer one). */
  replacements: number;
}

/**
 * The syntax problems of a tree, in document order: ERROR nodes and the zero-width tokens
 * tree-sitter invents to recover from a missing one (a MISSING `)`); napi shows both.
 */
function syntaxProblems(root: SgNode): SgNode[] {
  const missing = root.findAll({ rule: { regex: "^$" } }).filter((node) => node.isLeaf());
  return [...root.findAll({ rule: { kind: "ERROR" } }), ...missing].sort(
    (left, right) => left.range().start.index - right.range().start.index,
  );
}

/**
 * Keeps a statement's `;` that neither the pattern nor the rewrite mentions: `var $A = $B`
 * matches `var x = 1;` whole, and `let $A = $B` should give `let x = 1;`.
 */
function keepSemicolon(node: SgNode, pattern: string, replacement: string): string {
  const ends = (text: string) => text.trimEnd().endsWith(";");
  if (!ends(node.text()) || ends(pattern) || ends(replacement) || replacement.trim().length === 0)
    return replacement;
  return `${replacement};`;
}

/** Stands for a deleted statement until its line is removed (no source text holds a NUL). */
const DELETED = "\u0000deleted\u0000";
const DELETED_LINE = new RegExp(`^[ \\t]*${DELETED}[ \\t]*\\n`, "gm");

/**
 * With an empty rewrite, what to replace: the statement when the match is all of one (so no
 * lone `;` stays behind), else the match.
 */
function deletionTarget(node: SgNode): SgNode {
  const parent = node.parent();
  if (parent === null || parent.kind() !== "expression_statement") return node;
  const rest = parent.text().replace(node.text(), "").trim();
  return rest === "" || rest === ";" ? parent : node;
}

/** Removes the deletion markers, and the lines they leave blank. */
function dropDeleted(text: string): string {
  return text.replace(DELETED_LINE, "").replaceAll(DELETED, "");
}

/**
 * Rewrites every match of a pattern in one file's text, then parses the result again: a
 * rewrite that leaves more syntax errors (ERROR nodes) than the file had is refused. An empty
 * template deletes each match — the whole statement (and its line, when it is alone on it) when
 * the match is all of an expression statement.
 *
 * @param napi - the loaded `@ast-grep/napi`
 * @param grammar - the grammar of the file
 * @param text - the file's working text (LF, no BOM)
 * @param pattern - the pattern (checked)
 * @param template - the rewrite template (checked)
 * @param path - the file's path, for the refusal
 * @returns the new text and the number of replacements
 * @throws ToolFailureError `INVALID_INPUT` when the result no longer parses
 */
export async function rewriteText(
  napi: AstGrepModule,
  grammar: string,
  text: string,
  pattern: string,
  template: string,
  path: string,
): Promise<FileRewrite> {
  const root = (await napi.parseAsync(grammar, text)).root();
  const nodes = root
    .findAll(pattern)
    .sort((left, right) => left.range().start.index - right.range().start.index);
  const edits: Edit[] = [];
  let end = -1;
  const deleting = template.trim().length === 0;
  for (const node of nodes) {
    const range = node.range();
    if (range.start.index < end) continue;
    if (deleting) {
      const target = deletionTarget(node);
      edits.push(target.replace(target === node ? "" : DELETED));
      end = target.range().end.index;
      continue;
    }
    const replacement = keepSemicolon(node, pattern, renderTemplate(template, node, text));
    edits.push(node.replace(replacement));
    end = range.end.index;
  }
  if (edits.length === 0) return { text, replacements: 0 };
  const rewritten = dropDeleted(root.commitEdits(edits));
  const before = syntaxProblems(root).length;
  const after = syntaxProblems((await napi.parseAsync(grammar, rewritten)).root());
  if (after.length > before) {
    const first = after[0] as SgNode;
    const line = first.range().start.line + 1;
    const what = first.kind() === "ERROR" ? "" : `a missing ${JSON.stringify(first.kind())}, `;
    throw new ToolFailureError(
      "INVALID_INPUT",
      `The rewrite would break ${path}: the result does not parse at line ${line} (${what}${JSON.stringify(lineOf(rewritten, first.range().start.index).trim().slice(0, 120))}). Nothing was written.`,
      {
        hint: "Make the rewrite complete code of the same kind as the match (an expression for an expression, a statement for a statement); try it with dry_run=true.",
      },
    );
  }
  return { text: rewritten, replacements: edits.length };
}
