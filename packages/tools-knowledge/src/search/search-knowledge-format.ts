/**
 * What `search_knowledge` returns and how it reads to the model: its data types, its description
 * and the rendered text (hits, empty answers, the page marker naming the whole next call).
 */
import {
  formatCount,
  formatPageMarker,
  joinSentences,
  type MountedTools,
  mountedTools,
  type NextCallValue,
} from "@agentool/contract";
import type { EmptyReason, KnowledgeHit } from "../engine/types.js";

/** The default name of the search tool. */
export const SEARCH_KNOWLEDGE_TOOL_NAME = "search_knowledge";

/** The memory family's search and write tools, named when mounted beside a store search. */
const MEMORY_SEARCH_NAME = "memory_search";
const MEMORY_WRITE_NAME = "memory_write";

/**
 * What the tool searches: `"corpus"` (a folder of files — hits open with `read_file`) or
 * `"store"` (excerpts saved with `remember` / `ingest` — hits carry tags, and the model may
 * filter on them).
 */
export type KnowledgeSourceKind = "corpus" | "store";

/** One hit as `search_knowledge` returns it. */
export interface SearchKnowledgeHit extends KnowledgeHit {
  /**
   * Whether the passage held more than the excerpt shows: lines of it left out (the excerpt is the
   * run of lines where the query's terms are densest, and the reference names exactly those) or a
   * line cut at the cap.
   */
  excerpt_truncated: boolean;
}

/** What `search_knowledge` returns (every key snake_case, as everything crossing the boundary). */
export interface SearchKnowledgeToolData {
  /** The query, as searched (trimmed). */
  query: string;
  /** The path prefix the hits were limited to, when one was given (normalised). */
  path_prefix?: string;
  /** The tags every hit had to carry, when some were given (store searches). */
  tags?: string[];
  /** 1-based rank of this page's first hit. */
  offset: number;
  /** The page size that applied. */
  limit: number;
  /** This page's hits, best first. */
  hits: SearchKnowledgeHit[];
  /** Hits in all (exact), before paging. */
  total: number;
  /** The `offset` of the next page; absent on the last page. */
  next_offset?: number;
  /** Whether hits after this page were left out. */
  truncated: boolean;
  /** Why there is no hit, when there is none. */
  empty_reason?: EmptyReason;
  /** How many documents and chunks the search covered. */
  searched: { documents: number; chunks: number };
  /** Things to know about this answer (index rebuilt, embedder down and BM25 used, …). */
  warnings: string[];
}

/** What the wording depends on. @internal */
export interface Wording {
  name: string;
  kind: KnowledgeSourceKind;
  mounted: MountedTools;
}

/**
 * The description of `search_knowledge` (or a store search under another name), naming only
 * mounted tools.
 *
 * @internal
 */
export function describeTool(wording: Wording): string {
  const { name, kind, mounted } = wording;
  const readFile = mounted.has("read_file");
  if (kind === "store") {
    return joinSentences(
      [
        `Search excerpts saved earlier${mounted.has("remember") ? " with remember" : ""}, best first: each hit gives the excerpt, its source, tags and document key.`,
        mounted.has(SEARCH_KNOWLEDGE_TOOL_NAME) && name !== SEARCH_KNOWLEDGE_TOOL_NAME
          ? `For the full fetched sources, use ${SEARCH_KNOWLEDGE_TOOL_NAME} instead.`
          : undefined,
        mounted.has(MEMORY_SEARCH_NAME)
          ? `Memories saved with ${MEMORY_WRITE_NAME} are kept apart: search them with ${MEMORY_SEARCH_NAME}.`
          : undefined,
        "A cut page ends with the exact next call.",
      ],
      "\n",
    );
  }
  return joinSentences(
    [
      `Search the knowledge folder's Markdown and text documents${mounted.has("web_fetch") ? " (pages saved by web_fetch among them)" : ""} by relevance, best first.`,
      "Each hit is a passage: reference file.md:12-40, its headings and an excerpt.",
      readFile
        ? 'Workflow: search with the words the documents would use → read the cited lines with read_file (reference file.md:12-40 → path="file.md", offset=12, limit=29) → answer citing file and lines.'
        : "Answer citing file and lines from the reference.",
      "The index refreshes on every call.",
      mounted.has("grep_search")
        ? "For an exact string or identifier use grep_search instead."
        : undefined,
      "A cut page ends with the exact next call.",
    ],
    "\n",
  );
}

function emptyMessage(data: SearchKnowledgeToolData, wording: Wording): string {
  const { name, kind, mounted } = wording;
  const query = JSON.stringify(data.query);
  switch (data.empty_reason) {
    case "empty_corpus":
      if (kind === "store") {
        const apart = mounted.has(MEMORY_SEARCH_NAME)
          ? ` Memories saved with ${MEMORY_WRITE_NAME} are kept apart: search them with ${MEMORY_SEARCH_NAME}.`
          : "";
        return mounted.has("remember")
          ? `No excerpt has been saved with remember yet, so ${name} has nothing to search. Save an excerpt with remember first, then search again.${apart}`
          : `Nothing has been saved yet, so ${name} has nothing to search. Excerpts must be saved first.${apart}`;
      }
      return `The knowledge folder has no Markdown or text file yet (.md, .markdown, .mdx, .txt, .rst; hidden folders are skipped), so ${name} has nothing to search.${mounted.has("web_fetch") ? ` Save pages into it with web_fetch, then call ${name} again.` : ` Add documents to it, then call ${name} again.`}`;
    case "filtered_out": {
      const filters = [
        data.path_prefix === undefined
          ? undefined
          : `path_prefix=${JSON.stringify(data.path_prefix)}`,
        data.tags === undefined ? undefined : `tags=${JSON.stringify(data.tags)}`,
      ].filter((part): part is string => part !== undefined);
      const prefixHint = data.path_prefix === undefined ? "" : " (or with a shorter path_prefix)";
      return `Passages match ${query}, but none with ${filters.join(" and ")}. Call ${name} again without ${filters.length > 1 ? "these filters" : "it"}${prefixHint}.`;
    }
    default: {
      const covered = `${formatCount(data.searched.documents)} ${data.searched.documents === 1 ? "document" : "documents"}`;
      const grep =
        mounted.has("grep_search") && kind === "corpus"
          ? `, or grep_search for an exact string`
          : "";
      return `No passage matches ${query} in ${covered}. Try other words: the terms the documents would use, a synonym, fewer words${grep}.`;
    }
  }
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => (line.length === 0 ? "" : `   ${line}`))
    .join("\n");
}

/** Options of {@link formatSearchKnowledgeResult}. */
export interface SearchKnowledgeFormatOptions {
  /** The tool's name, for the next call and the messages. Default `"search_knowledge"`. */
  toolName?: string;
  /** What the tool searches. Default `"corpus"`. */
  sourceKind?: KnowledgeSourceKind;
  /** Names of the tools mounted beside it (the messages name only these). Default: none. */
  mountedTools?: readonly string[];
}

/**
 * Renders a `search_knowledge` result for the model: a summary line, then per hit its rank, its
 * reference (`docs/a.md:12-40`), its heading trail, its score and its excerpt (indented), how to
 * open a passage, the contract's page marker naming the next call when more hits remain, and
 * the warnings. An empty result says which of the three cases it is and what to do next.
 *
 * @param data - the tool's data
 * @param options - the tool's name, what it searches and what is mounted beside it
 * @returns model-facing text
 * @example
 * formatSearchKnowledgeResult(data);
 * // "Hits 1–8 of 23 for \"hnsw index\" (best first; 120 documents, 1,034 passages searched):\n1. docs/pgvector.md:12-40 — Indexes > HNSW (score 0.0323)\n   …"
 */
export function formatSearchKnowledgeResult(
  data: SearchKnowledgeToolData,
  options: SearchKnowledgeFormatOptions = {},
): string {
  const wording: Wording = {
    name: options.toolName ?? SEARCH_KNOWLEDGE_TOOL_NAME,
    kind: options.sourceKind ?? "corpus",
    mounted: mountedTools(options.mountedTools),
  };
  const lines: string[] = [];
  if (data.hits.length === 0) {
    lines.push(emptyMessage(data, wording));
  } else {
    const first = data.offset;
    const last = data.offset + data.hits.length - 1;
    const range =
      first === 1 && !data.truncated
        ? `${formatCount(data.total)} ${data.total === 1 ? "hit" : "hits"}`
        : `Hits ${formatCount(first)}–${formatCount(last)} of ${formatCount(data.total)}`;
    const filters = [
      data.path_prefix === undefined ? "" : ` under ${JSON.stringify(data.path_prefix)}`,
      data.tags === undefined ? "" : ` tagged ${data.tags.join(", ")}`,
    ].join("");
    const covered = `${formatCount(data.searched.documents)} ${data.searched.documents === 1 ? "document" : "documents"}, ${formatCount(data.searched.chunks)} ${data.searched.chunks === 1 ? "passage" : "passages"} searched`;
    lines.push(`${range} for ${JSON.stringify(data.query)}${filters} (best first; ${covered}):`);
    for (const [index, hit] of data.hits.entries()) {
      const trail = hit.heading_trail.length > 0 ? ` — ${hit.heading_trail.join(" > ")}` : "";
      const extras = [
        hit.source !== undefined && hit.source !== hit.file ? `source ${hit.source}` : "",
        hit.tags !== undefined && hit.tags.length > 0 ? `tags ${hit.tags.join(", ")}` : "",
      ].filter((part) => part.length > 0);
      // A store hit has no file to open: it is named by its key, without lines. Scores stay in the
      // data only (fused ranks are tiny numbers that say little beside the order).
      const name = wording.kind === "store" ? `key ${hit.file}` : hit.reference;
      lines.push(
        `${formatCount(first + index)}. ${name}${trail}${extras.length > 0 ? ` (${extras.join("; ")})` : ""}`,
      );
      const excerpt = hit.excerpt_truncated ? `${hit.excerpt.trimEnd()} …` : hit.excerpt;
      if (excerpt.trim().length > 0) lines.push(indent(excerpt));
    }
    const top = data.hits[0] as SearchKnowledgeHit;
    if (wording.kind === "corpus" && wording.mounted.has("read_file")) {
      lines.push(
        `Open a passage with read_file: ${top.reference} is path=${JSON.stringify(top.file)}, offset=${top.start_line}, limit=${top.end_line - top.start_line + 1}.`,
      );
    }
  }
  if (data.next_offset !== undefined) {
    const args: Record<string, NextCallValue> = { query: data.query };
    if (data.path_prefix !== undefined) args.path_prefix = data.path_prefix;
    if (data.tags !== undefined) args.tags = data.tags;
    args.limit = data.limit;
    const omitted = Math.max(1, data.total - data.next_offset + 1);
    lines.push(
      formatPageMarker({
        tool: wording.name,
        nextOffset: data.next_offset,
        omitted,
        unit: omitted === 1 ? "hit" : "hits",
        args,
      }),
    );
  }
  for (const warning of data.warnings) lines.push(`Note: ${warning}`);
  return lines.join("\n");
}
