import {
  closestNames,
  defineTool,
  type FailOptions,
  formatCount,
  joinSentences,
  type MountedTools,
  mountedTools,
  ok,
  parseOptions,
  type Tool,
  ToolFailureError,
} from "@agentool/contract";
import { commitChangeSet, type FileEditResult, planChangeSet } from "@agentool/tools-fs";
import { workspaceFromOptions } from "@agentool/tools-fs/node";
import { z } from "zod";
import {
  type CodeToolOptions,
  codeToolOptionsShape,
  DEFAULT_CODE_TIMEOUT_MS,
} from "./internal/code-support.js";
import { formatLineRange } from "./internal/render-symbols.js";
import { decoratedStart, startsWithDecorator } from "./internal/symbol-edit/decorated-span.js";
import { fitDefinition, indentationAt } from "./internal/symbol-edit/fit-definition.js";
import { pythonIndentationProblems } from "./internal/symbol-edit/python-indentation.js";
import { matchesSymbol, parseSymbolQuery } from "./internal/symbol-query.js";
import { extractSymbols } from "./internal/tree-sitter/extract-symbols.js";
import {
  isParsedLanguage,
  languageForPath,
  type ParsedLanguage,
} from "./internal/tree-sitter/languages.js";
import type { EngineSymbol, SymbolKind } from "./internal/tree-sitter/symbol.js";

/** The default name of the symbol replacement tool. */
export const REPLACE_SYMBOL_TOOL_NAME = "replace_symbol";

/** Most candidates an ambiguity refusal lists. */
export const MAX_LISTED_CANDIDATES = 20;

/** Options of {@link createReplaceSymbolTool}. */
export interface ReplaceSymbolToolOptions extends CodeToolOptions {
  /**
   * Offer the `expected_sha` field (the file's sha as last seen; `CONFLICT` if it changed).
   * Default `false`: the symbol is found by name in the file as it is now and the result must
   * parse, and the field costs ~50 tokens of definition on every call.
   */
  expectedShas?: boolean;
}

/** What `replace_symbol` returns. */
export interface ReplaceSymbolToolData {
  /** The file, relative to the root. */
  path: string;
  /** The replaced symbol's qualified name. */
  qualified_name: string;
  /** Its kind. */
  kind: SymbolKind;
  /** First line of the span replaced (1-based): its first decorator, or the declaration. */
  start_line: number;
  /** Last line of the span replaced. */
  end_line: number;
  /** Whether the span replaced began with decorators (attributes, annotations). */
  decorators: boolean;
  /** Whether the old span had decorators and the new definition has none (they are gone). */
  decorators_dropped: boolean;
  /** Last line of the new definition (it starts at `start_line`). */
  new_end_line: number;
  /** Whether nothing was written (`dry_run`): the diff and `sha` are what the call would do. */
  dry_run: boolean;
  /** The file's sha-256 before. */
  previous_sha: string;
  /** The file's sha-256 now (on a dry run: after applying): what `expected_sha` takes next. */
  sha: string;
  /** Unified diff of the change (may be cut; counts are whole). */
  diff: string;
  /** Lines added. */
  added: number;
  /** Lines removed. */
  removed: number;
  /** Syntax errors the file has now (never more than before). */
  syntax_errors: number;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds.
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/** The replacement tool's input schema. */
export const replaceSymbolInputSchema = z.object({
  path: z.string().min(1).describe("The source file, relative to the workspace root."),
  name: z
    .string()
    .min(1)
    .max(300)
    .refine((value) => !CONTROL_CHARACTER.test(value), "name has a control character.")
    .describe("The symbol: a name, or qualified (Parser.parse) when the name is not unique."),
  new_body: z.string().describe("The whole new definition: decorators, signature and body."),
  dry_run: z.boolean().optional().describe("Return the diff; write nothing."),
  expected_sha: z
    .string()
    .regex(/^[0-9a-fA-F]{12,64}$/)
    .optional()
    .describe("The file's sha (or a 12+ hex prefix) as you last saw it; refused if it changed."),
});

/** The replacement tool's type. */
export type ReplaceSymbolTool = Tool<typeof replaceSymbolInputSchema, ReplaceSymbolToolData>;

/** Field aliases `replace_symbol` accepts silently (alias → field). */
export const REPLACE_SYMBOL_ALIASES: Readonly<Record<string, string>> = {
  file_path: "path",
  symbol: "name",
  name_path: "name",
  body: "new_body",
  new_text: "new_body",
};

function defaultDescription(mounted: MountedTools): string {
  return joinSentences([
    "Replace one declaration (function, method, class, type…) found by name: new_body replaces its decorators and declaration, not the comments above, so repeat the decorators you keep; any indentation.",
    "A name declared more than once is refused, listing the candidates: use the qualified name (Class.method).",
    "Refused if it adds syntax errors; returns the diff and the new sha.",
    mounted.when("edit_file", "For a few lines inside a body, edit_file is smaller."),
  ]);
}

/**
 * Renders the result for a model: what was replaced, the new span and sha, then the diff.
 *
 * @param data - the tool's data
 * @returns model-facing text
 * @example
 * formatReplaceSymbol(result.data); // "Replaced method Parser.parse in src/a.ts: lines 12-30, now 12-34 (+5 -1). sha 0123456789ab…"
 */
export function formatReplaceSymbol(data: ReplaceSymbolToolData): string {
  const span = `${lines(data.start_line, data.end_line)}${data.decorators ? ", decorators included" : ""}`;
  const now = formatLineRange(data.start_line, data.new_end_line);
  const counts = `+${formatCount(data.added)} -${formatCount(data.removed)}`;
  const sha = data.sha.slice(0, 12);
  const head = data.dry_run
    ? `Dry run: would replace ${data.kind} ${data.qualified_name} in ${data.path}: ${span}, then ${now} (${counts}); nothing was written. sha after: ${sha}`
    : `Replaced ${data.kind} ${data.qualified_name} in ${data.path}: ${span}, now ${now} (${counts}). sha ${sha}`;
  const note = data.decorators_dropped
    ? "Its decorators were part of the span and new_body has none: they are gone."
    : "";
  return [head, note, data.diff].filter((part) => part.length > 0).join("\n");
}

function lines(start: number, end: number): string {
  return `line${start === end ? "" : "s"} ${formatLineRange(start, end)}`;
}

function refusal(
  code: "PATTERN_NOT_FOUND" | "PATTERN_NOT_UNIQUE" | "INVALID_INPUT" | "UNSUPPORTED",
  error: string,
  options: FailOptions = {},
): FileEditResult {
  return { code, error, ...(options.hint === undefined ? {} : { hint: options.hint }) };
}

function candidateLine(symbol: EngineSymbol): string {
  return `${symbol.kind} ${symbol.qualified_name} (${lines(symbol.start_line, symbol.end_line)})`;
}

/** The line (1-based) an offset is on. */
function lineAt(text: string, index: number): number {
  let line = 1;
  for (let at = text.indexOf("\n"); at !== -1 && at < index; at = text.indexOf("\n", at + 1))
    line += 1;
  return line;
}

/** Refuses a Python replacement that adds indentation errors (tree-sitter parses them silently). */
function indentationRefusal(
  language: ParsedLanguage,
  before: string,
  after: string,
  symbol: EngineSymbol,
  path: string,
): FileEditResult | undefined {
  if (language !== "python") return undefined;
  const added = pythonIndentationProblems(after);
  if (added.length <= pythonIndentationProblems(before).length) return undefined;
  const first = added.find((problem) => problem.line >= symbol.start_line) ?? added[0];
  return refusal(
    "INVALID_INPUT",
    `The new ${symbol.kind} ${symbol.qualified_name} would leave ${path} mis-indented (line ${first?.line}: ${first?.message}); nothing was written.`,
    {
      hint: "Indent new_body as one block: the body one level deeper than its def/class line (any base column; it is re-indented to the symbol's).",
    },
  );
}

const optionsSchema = z
  .object({ ...codeToolOptionsShape, expectedShas: z.boolean().optional() })
  .strict();

const { expected_sha: _expectedSha, ...plainShape } = replaceSymbolInputSchema.shape;
/** The input without `expected_sha` (the default: see {@link ReplaceSymbolToolOptions.expectedShas}). */
const plainInputSchema = z.object(plainShape);

/**
 * Creates the `replace_symbol` tool (Serena's replace_symbol_body): replaces one declaration's
 * whole definition, found by name with tree-sitter. Refuses an ambiguous name (listing every
 * candidate with its lines), an unknown one (with the closest names), and a replacement that
 * leaves the file with more syntax errors than it had (or, in Python, new indentation errors).
 * The span replaced is the symbol's decorators and declaration, never the comments above it;
 * `new_body` is re-indented as a block to the symbol's column. Written through tools-fs's change
 * set: confined, secrets and `.git` refused, `expected_sha` checked (with the `expectedShas`
 * option), encoding/BOM/CRLF kept, atomic; `dry_run` returns the diff and writes nothing.
 *
 * @param options - `root` (or a tools-fs `workspace`) and overrides
 * @returns the tool
 * @throws AgentoolError when the options are invalid
 * @example
 * const replaceSymbol = createReplaceSymbolTool({ root: "/work/repo" });
 * await replaceSymbol.run({ path: "src/a.ts", name: "Parser.parse", new_body: "parse(): void {}" });
 */
export function createReplaceSymbolTool(options: ReplaceSymbolToolOptions): ReplaceSymbolTool {
  const parsed = parseOptions("createReplaceSymbolTool", optionsSchema, options);
  const workspace = workspaceFromOptions("createReplaceSymbolTool", parsed);
  const name = parsed.name ?? REPLACE_SYMBOL_TOOL_NAME;
  const mounted = mountedTools(parsed.mountedTools, name);
  const outline = mounted.when("code_outline", " code_outline lists the file's symbols.");
  return defineTool({
    name,
    description: parsed.description ?? defaultDescription(mounted),
    // Both shapes parse to the same request; without the field, expected_sha is never sent.
    input:
      parsed.expectedShas === true
        ? replaceSymbolInputSchema
        : (plainInputSchema as unknown as typeof replaceSymbolInputSchema),
    aliases: REPLACE_SYMBOL_ALIASES,
    annotations: { title: "Replace a symbol's definition", destructive: true },
    tags: ["code", "code:write"],
    timeoutMs: parsed.timeoutMs ?? DEFAULT_CODE_TIMEOUT_MS,
    execute: async (request, context) => {
      const language = languageForPath(request.path);
      if (language === undefined || !isParsedLanguage(language)) {
        throw new ToolFailureError(
          "UNSUPPORTED",
          `${request.path}: replace_symbol needs a language it parses (TypeScript/JavaScript, Python, Go, Rust, Java, C/C++, C#, Ruby, PHP, Bash, CSS).`,
          {
            hint: mounted.has("edit_file")
              ? "Use edit_file for this file."
              : "Edit the text instead.",
          },
        );
      }
      const query = parseSymbolQuery(request.name);
      let replaced:
        | {
            symbol: EngineSymbol;
            startLine: number;
            decorators: boolean;
            decoratorsDropped: boolean;
            newEnd: number;
            errors: number;
          }
        | undefined;
      const planned = await planChangeSet(
        workspace,
        [
          {
            kind: "update",
            path: request.path,
            ...(request.expected_sha === undefined ? {} : { expectedSha: request.expected_sha }),
            edit: async (text) => {
              const before = await extractSymbols(language, text, { signal: context.signal });
              if (before.method !== "tree-sitter") {
                return refusal(
                  "UNSUPPORTED",
                  `${request.path} could not be parsed (${before.heuristicReason}); its symbols are only approximate.`,
                  { hint: "Edit the text instead." },
                );
              }
              const matches = before.symbols.filter((symbol) =>
                matchesSymbol(symbol, query, request.path),
              );
              if (matches.length === 0) {
                const names = [...new Set(before.symbols.map((symbol) => symbol.qualified_name))];
                const close = closestNames(request.name, names);
                return refusal(
                  "PATTERN_NOT_FOUND",
                  `No symbol ${request.name} in ${request.path}.`,
                  {
                    hint: `${close.length > 0 ? `Did you mean ${close.join(", ")}? ` : ""}${outline}`.trim(),
                  },
                );
              }
              if (matches.length > 1) {
                const listed = matches.slice(0, MAX_LISTED_CANDIDATES).map(candidateLine);
                const sameName = new Set(matches.map((symbol) => symbol.qualified_name)).size === 1;
                return refusal(
                  "PATTERN_NOT_UNIQUE",
                  `${request.name} names ${matches.length} declarations in ${request.path}: ${listed.join("; ")}${matches.length > listed.length ? "; …" : ""}.`,
                  {
                    hint: sameName
                      ? `They share one qualified name (overloads, accessors or redefinitions): ${mounted.has("edit_file") ? "change the one you mean with edit_file" : "edit the text of the one you mean"}.`
                      : "Call again with the qualified name of the one you mean.",
                  },
                );
              }
              const symbol = matches[0] as EngineSymbol;
              const start = await decoratedStart(language, text, symbol);
              const startLine = lineAt(text, start);
              if (request.new_body.trim().length === 0) {
                return refusal(
                  "INVALID_INPUT",
                  `new_body is empty: replace_symbol replaces ${symbol.kind} ${symbol.qualified_name}, it does not delete it.`,
                  {
                    hint: `To delete it, remove ${lines(startLine, symbol.end_line)} of ${request.path} with ${mounted.filter(["edit_file", "apply_patch"]).join(" or ") || "a text edit"}.`,
                  },
                );
              }
              const old = text.slice(start, symbol.endIndex);
              const body = fitDefinition(request.new_body, indentationAt(text, start), old);
              const next = text.slice(0, start) + body + text.slice(symbol.endIndex);
              const after = await extractSymbols(language, next, { signal: context.signal });
              if (after.errorCount > before.errorCount) {
                const lines = after.errorLines.filter((line) => line >= startLine).slice(0, 5);
                return refusal(
                  "INVALID_INPUT",
                  `The new ${symbol.kind} ${symbol.qualified_name} leaves ${request.path} with ${after.errorCount} syntax error${after.errorCount === 1 ? "" : "s"} (it had ${before.errorCount})${lines.length > 0 ? `, first at line ${lines.join(", ")}` : ""}; nothing was written.`,
                  {
                    hint: "Send the complete definition (signature and body, brackets balanced), in the file's language.",
                  },
                );
              }
              const badlyIndented = indentationRefusal(language, text, next, symbol, request.path);
              if (badlyIndented !== undefined) return badlyIndented;
              const decorators = startsWithDecorator(language, old);
              replaced = {
                symbol,
                startLine,
                decorators,
                decoratorsDropped: decorators && !startsWithDecorator(language, body),
                newEnd: startLine + body.split("\n").length - 1 - (body.endsWith("\n") ? 1 : 0),
                errors: after.errorCount,
              };
              return next;
            },
          },
        ],
        { signal: context.signal },
      );
      if (!planned.success) return planned;
      const dryRun = request.dry_run === true;
      if (!dryRun) {
        const committed = await commitChangeSet(workspace, planned.data, {
          signal: context.signal,
          tool: name,
        });
        if (!committed.success) return committed;
      }
      const file = planned.data.files[0];
      if (file === undefined || replaced === undefined) {
        throw new Error("replace_symbol: the change set returned no file.");
      }
      const { symbol } = replaced;
      return ok({
        path: file.path,
        qualified_name: symbol.qualified_name,
        kind: symbol.kind,
        start_line: replaced.startLine,
        end_line: symbol.end_line,
        decorators: replaced.decorators,
        decorators_dropped: replaced.decoratorsDropped,
        new_end_line: replaced.newEnd,
        dry_run: dryRun,
        previous_sha: file.previousSha ?? "",
        sha: file.sha ?? "",
        diff: file.diff.text,
        added: file.diff.added,
        removed: file.diff.removed,
        syntax_errors: replaced.errors,
      });
    },
    render: formatReplaceSymbol,
  });
}
