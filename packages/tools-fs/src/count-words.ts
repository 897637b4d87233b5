import { defineTool, formatCount, ok, parseOptions, type Tool } from "@agentool/contract";
import { z } from "zod";
import {
  DEFAULT_MAX_DOCUMENT_BYTES,
  DOCUMENT_PATH_ALIASES,
  loadTextDocument,
} from "./extract-toc.js";
import { countText, parseMarkdown, stripInlineMarkdown } from "./internal/markdown.js";
import { type WorkspaceToolOptions, workspaceToolOptionsShape } from "./internal/tool-support.js";

/** The default name of the word-counting tool. */
export const COUNT_WORDS_TOOL_NAME = "count_words";

/** File extensions read as Markdown (headings, code blocks, markup not counted); others are plain text. */
export const MARKDOWN_EXTENSIONS: readonly string[] = [
  "md",
  "markdown",
  "mdx",
  "mdown",
  "mkd",
  "mkdn",
  "mdwn",
  "rmd",
  "qmd",
];

/** Options of {@link createCountWordsTool}. */
export interface CountWordsToolOptions extends WorkspaceToolOptions {
  /** Largest document read (bytes); larger ones are refused with `TOO_LARGE`. Default 10 MiB. */
  maxFileBytes?: number;
}

const optionsSchema = z.object({
  ...workspaceToolOptionsShape,
  maxFileBytes: z.number().int().min(1).optional(),
});

/** The input schema of `count_words`. */
export const countWordsInputSchema = z.object({
  path: z
    .string()
    .describe("The document (Markdown or plain text), relative to the workspace root."),
});

/** The input of `count_words`. */
export type CountWordsInput = z.output<typeof countWordsInputSchema>;

/** What `count_words` returns. */
export interface CountWordsToolData {
  /** The document, as a workspace path. */
  path: string;
  /** Characters that are not whitespace, in the readable text. */
  characters: number;
  /** Words: Latin-script words split by whitespace and punctuation, plus each CJK character. */
  words: number;
  /** How many of the words are CJK characters (Han, Hiragana, Katakana, Hangul), one word each. */
  cjk_characters: number;
  /** Paragraphs: runs of text lines between blank lines (headings, code blocks and breaks excluded). */
  paragraphs: number;
  /** Markdown headings (ATX and Setext); 0 for plain text. */
  headings: number;
  /** Lines in the file. */
  lines: number;
  /** Whether the file was read as Markdown (by its extension). */
  markdown: boolean;
}

/**
 * The zod schema of `count_words`'s data ({@link CountWordsToolData}), declared as the tool's
 * `output` so hosts that read structured results (MCP's `outputSchema` + `structuredContent`) get
 * the counts as data. Keys are listed in the order the tool writes them.
 *
 * @example
 * countWordsOutputSchema.parse(result.data).words; // 1520
 */
export const countWordsOutputSchema = z.object({
  path: z.string().describe("The document, as a workspace path."),
  characters: z
    .number()
    .int()
    .min(0)
    .describe("Characters that are not whitespace, in the readable text."),
  words: z
    .number()
    .int()
    .min(0)
    .describe(
      "Words: Latin-script words split by whitespace and punctuation, plus each CJK character.",
    ),
  cjk_characters: z
    .number()
    .int()
    .min(0)
    .describe("How many of the words are CJK characters (Han, Hiragana, Katakana, Hangul)."),
  paragraphs: z
    .number()
    .int()
    .min(0)
    .describe("Paragraphs: runs of text lines between blank lines."),
  headings: z
    .number()
    .int()
    .min(0)
    .describe("Markdown headings (ATX and Setext); 0 for plain text."),
  lines: z.number().int().min(0).describe("Lines in the file."),
  markdown: z.boolean().describe("Whether the file was read as Markdown (by its extension)."),
});

/** The `count_words` tool's type. */
export type CountWordsTool = Tool<typeof countWordsInputSchema, CountWordsToolData>;

const DESCRIPTION = [
  "Count a document's words, characters (without spaces), paragraphs, headings and lines, e.g. to check a length limit.",
  "Each CJK character is one word. Markdown is counted as readers see it (no URLs, tags, markup or front matter).",
].join("\n");

/**
 * Renders word counts as one line.
 *
 * @param data - the counts
 * @returns model-facing text
 */
export function formatWordCount(data: CountWordsToolData): string {
  const cjk =
    data.cjk_characters > 0
      ? ` (${formatCount(data.cjk_characters)} of them CJK characters, one word each)`
      : "";
  const count = (value: number, one: string, many: string) =>
    `${formatCount(value)} ${value === 1 ? one : many}`;
  const summary = `${data.path}: ${count(data.words, "word", "words")}${cjk}, ${count(data.characters, "character", "characters")} without spaces, ${count(data.paragraphs, "paragraph", "paragraphs")}, ${count(data.headings, "heading", "headings")}, ${count(data.lines, "line", "lines")}.`;
  return data.words === 0
    ? `${summary} The document has no words (it is empty or holds only markup).`
    : summary;
}

/**
 * Creates the `count_words` tool: words (each CJK character one word), characters without
 * spaces, paragraphs, headings and lines of a text document; Markdown markup is not counted.
 *
 * @param options - the workspace, the size cap and name/description overrides
 * @returns the tool
 * @throws AgentoolError when the options are invalid
 * @example
 * const countWords = createCountWordsTool({ workspace });
 * await countWords.run({ path: "docs/essay.md" }); // data: { words: 1520, characters: 7310, … }
 */
export function createCountWordsTool(options: CountWordsToolOptions): CountWordsTool {
  const parsed = parseOptions("createCountWordsTool", optionsSchema, options);
  const workspace = parsed.workspace;
  const maxBytes = parsed.maxFileBytes ?? DEFAULT_MAX_DOCUMENT_BYTES;
  const name = parsed.name ?? COUNT_WORDS_TOOL_NAME;
  return defineTool({
    name,
    description: parsed.description ?? DESCRIPTION,
    input: countWordsInputSchema,
    aliases: DOCUMENT_PATH_ALIASES,
    annotations: { title: "Count words", readOnly: true, idempotent: true },
    tags: ["fs:read"],
    output: countWordsOutputSchema,
    execute: async (request) => {
      const loaded = await loadTextDocument(workspace, request.path, maxBytes, name);
      if (!loaded.success) return loaded;
      const extension = /\.([^./]+)$/.exec(loaded.data.display)?.[1]?.toLowerCase() ?? "";
      const markdown = MARKDOWN_EXTENSIONS.includes(extension);
      const document = parseMarkdown(loaded.data.text, { markdown });
      let characters = 0;
      let words = 0;
      let cjkCharacters = 0;
      let paragraphs = 0;
      let headings = 0;
      for (const block of document.blocks) {
        let text: string;
        if (block.kind === "paragraph") {
          paragraphs += 1;
          text = markdown ? stripInlineMarkdown(block.text) : block.text;
        } else if (block.kind === "heading") {
          if (block.text.length > 0) headings += 1;
          text = stripInlineMarkdown(block.text);
        } else if (block.kind === "code") {
          text = block.text;
        } else continue;
        const counts = countText(text);
        characters += counts.characters;
        words += counts.words;
        cjkCharacters += counts.cjkCharacters;
      }
      return ok({
        path: loaded.data.display,
        characters,
        words,
        cjk_characters: cjkCharacters,
        paragraphs,
        headings,
        lines: document.lines,
        markdown,
      });
    },
    render: formatWordCount,
  });
}
