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
import { z } from "zod";
import {
  type CodeToolOptions,
  codeToolOptionsShape,
  DEFAULT_CODE_TIMEOUT_MS,
  workspaceOf,
} from "./internal/code-support.js";
import { matchesSymbol, parseSymbolQuery } from "./internal/symbol-query.js";
import { extractSymbols } from "./internal/tree-sitter/extract-symbols.js";
import { isParsedLanguage, languageForPath } from "./internal/tree-sitter/languages.js";
import type { EngineSymbol, SymbolKind } from "./internal/tree-sitter/symbol.js";

/** The default name of the symbol replacement tool. */
export const REPLACE_SYMBOL_TOOL_NAME = "replace_symbol";

/** Most candidates an ambiguity refusal lists. */
export const MAX_LISTED_CANDIDATES = 20;

/** Options of {@link createReplaceSymbolTool}. */
export type ReplaceSymbolToolOptions = CodeToolOptions;

/** What `replace_symbol` returns. */
export interface ReplaceSymbolToolData {
  /** The file, relative to the root. */
  path: string;
  /** The replaced symbol's qualified name. */
  qualified_name: string;
  /** Its kind. */
  kind: SymbolKind;
  /** First line of the old definition (1-based). */
  start_line: number;
  /** Last line of the old definition. */
  end_line: number;
  /** Last line of the new definition (it starts at `start_line`). */
  new_end_line: number;
  /** The file's sha-256 before. */
  previous_sha: string;
  /** The file's sha-256 now: what `expected_sha` takes next. */
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

/** The replacement tool's input schema. */
export const replaceSymbolInputSchema = z.object({
  path: z.string().min(1).describe("The source file, relative to the workspace root."),
  name: z
    .string()
    .min(1)
    .max(300)
    .describe("The symbol: a name, or qualified (Parser.parse) when the name is not unique."),
  new_body: z
    .string()
    .describe(
      "The complete new definition — signature, decorators and body — replacing start_line–end_line.",
    ),
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
    "Replace one declaration — a function, method, class, type… — with new_body, found by name: the whole definition from its first line (decorators, export) to its last.",
    `${mounted.has("code_outline") ? "See the span with code_outline first; " : ""}a name declared more than once is refused with every candidate listed: call again with the qualified name (Class.method).`,
    "Refused if the new text adds syntax errors. Keeps encoding, BOM and CRLF; returns a diff and the new sha.",
    mounted.when("edit_file", "To change a few lines inside a body, edit_file is smaller."),
  ]);
}

/**
 * Renders the result for a model: what was replaced, the new span and sha, then the diff.
 *
 * @param data - the tool's data
 * @returns model-facing text
 * @example
 * formatReplaceSymbol(result.data); // "Replaced method Parser.parse in src/a.ts (lines 12-30, now 12-34)…"
 */
export function formatReplaceSymbol(data: ReplaceSymbolToolData): string {
  return [
    `Replaced ${data.kind} ${data.qualified_name} in ${data.path} (lines ${data.start_line}-${data.end_line}, now ${data.start_line}-${data.new_end_line}; +${formatCount(data.added)} -${formatCount(data.removed)}). sha ${data.sha}`,
    data.diff,
  ]
    .filter((part) => part.length > 0)
    .join("\n");
}

function refusal(
  code: "PATTERN_NOT_FOUND" | "PATTERN_NOT_UNIQUE" | "INVALID_INPUT" | "UNSUPPORTED",
  error: string,
  options: FailOptions = {},
): FileEditResult {
  return { code, error, ...(options.hint === undefined ? {} : { hint: options.hint }) };
}

function candidateLine(symbol: EngineSymbol): string {
  return `${symbol.kind} ${symbol.qualified_name} (lines ${symbol.start_line}-${symbol.end_line})`;
}

/** Fits a new definition into the place of the old one: LF, no indentation before its first line (the old line keeps its own), no extra final newline. */
function fitBody(newBody: string, old: string): string {
  let body = newBody.replace(/\r\n?/g, "\n").replace(/^[ \t]+/, "");
  if (!old.endsWith("\n")) body = body.replace(/\n$/, "");
  return body;
}

const optionsSchema = z.object(codeToolOptionsShape).strict();

/**
 * Creates the `replace_symbol` tool (Serena's replace_symbol_body): replaces one declaration's
 * whole definition, found by name with tree-sitter. Refuses an ambiguous name (listing every
 * candidate with its lines), an unknown one (with the closest names), and a replacement that
 * leaves the file with more syntax errors than it had. Written through tools-fs's change set:
 * confined, secrets and `.git` refused, `expected_sha` checked, encoding/BOM/CRLF kept, atomic.
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
  const workspace = workspaceOf("createReplaceSymbolTool", parsed);
  const name = parsed.name ?? REPLACE_SYMBOL_TOOL_NAME;
  const mounted = mountedTools(parsed.mountedTools, name);
  const outline = mounted.when("code_outline", " code_outline lists the file's symbols.");
  return defineTool({
    name,
    description: parsed.description ?? defaultDescription(mounted),
    input: replaceSymbolInputSchema,
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
      let replaced: { symbol: EngineSymbol; newEnd: number; errors: number } | undefined;
      const planned = await planChangeSet(
        workspace,
        [
          {
            kind: "update",
            path: request.path,
            ...(request.expected_sha === undefined ? {} : { expectedSha: request.expected_sha }),
            edit: async (text) => {
              const before = await extractSymbols(language, text);
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
              const old = text.slice(symbol.startIndex, symbol.endIndex);
              const body = fitBody(request.new_body, old);
              const next = text.slice(0, symbol.startIndex) + body + text.slice(symbol.endIndex);
              const after = await extractSymbols(language, next);
              if (after.errorCount > before.errorCount) {
                const firstLine = text.slice(0, symbol.startIndex).split("\n").length;
                const lines = after.errorLines.filter((line) => line >= firstLine).slice(0, 5);
                return refusal(
                  "INVALID_INPUT",
                  `The new ${symbol.kind} ${symbol.qualified_name} leaves ${request.path} with ${after.errorCount} syntax error${after.errorCount === 1 ? "" : "s"} (it had ${before.errorCount})${lines.length > 0 ? `, first at line ${lines.join(", ")}` : ""}; nothing was written.`,
                  {
                    hint: "Send the complete definition (signature and body, brackets balanced), in the file's language.",
                  },
                );
              }
              replaced = {
                symbol,
                newEnd:
                  symbol.start_line + body.split("\n").length - 1 - (body.endsWith("\n") ? 1 : 0),
                errors: after.errorCount,
              };
              return next;
            },
          },
        ],
        { signal: context.signal },
      );
      if (!planned.success) return planned;
      const committed = await commitChangeSet(workspace, planned.data, {
        signal: context.signal,
        tool: name,
      });
      if (!committed.success) return committed;
      const file = planned.data.files[0];
      const written = committed.data.files[0];
      if (file === undefined || written === undefined || replaced === undefined) {
        throw new Error("replace_symbol: the change set returned no file.");
      }
      const { symbol } = replaced;
      return ok({
        path: file.path,
        qualified_name: symbol.qualified_name,
        kind: symbol.kind,
        start_line: symbol.start_line,
        end_line: symbol.end_line,
        new_end_line: replaced.newEnd,
        previous_sha: written.previousSha ?? "",
        sha: written.sha ?? "",
        diff: file.diff.text,
        added: file.diff.added,
        removed: file.diff.removed,
        syntax_errors: replaced.errors,
      });
    },
    render: formatReplaceSymbol,
  });
}
