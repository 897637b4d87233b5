import { createHash } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { ToolContext } from "@agentool/contract";
import type { FetchedDocument, PageSaver } from "../web-fetch.js";

/** Where pages are saved: a directory, or a function of the call context (per-thread folders). */
export type SaveDirectory = string | ((context: ToolContext) => string | Promise<string>);

/** Longest file name stem (before `.md`). */
const MAX_STEM = 120;

function shortHash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 10);
}

/**
 * The file name a URL is saved under: host and path as a slug, plus a hash of the query (and of
 * the whole URL when the slug is too long), `.md`. The same URL always maps to the same name, so
 * fetching it again refreshes its file.
 *
 * @param url - the document's URL
 * @returns e.g. `example.com-docs-intro.md`
 * @example
 * savedFileName("https://example.com/docs/intro/"); // "example.com-docs-intro.md"
 */
export function savedFileName(url: string): string {
  const parsed = new URL(url);
  let stem = `${parsed.hostname}${parsed.port ? `-${parsed.port}` : ""}${parsed.pathname}`
    .replace(/[^a-zA-Z0-9._-]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "");
  stem = stem.replace(/\.(html?|php|aspx?|md)$/i, "");
  if (parsed.search) stem = `${stem}-${shortHash(parsed.search)}`;
  if (stem.length > MAX_STEM) stem = `${stem.slice(0, MAX_STEM - 11)}-${shortHash(url)}`;
  return `${stem || shortHash(url)}.md`;
}

function yamlString(value: string): string {
  return JSON.stringify(value.replace(/[\r\n]+/g, " "));
}

/**
 * Formats a saved document: YAML front matter (`url`, `title`, `fetched`, and `final_url` /
 * `type` when useful) followed by the text.
 *
 * @param document - the fetched document
 * @returns the file's content
 */
export function formatSavedDocument(document: FetchedDocument): string {
  const lines = ["---", `url: ${yamlString(document.url)}`];
  if (document.final_url !== document.url)
    lines.push(`final_url: ${yamlString(document.final_url)}`);
  lines.push(
    `title: ${yamlString(document.title)}`,
    `fetched: ${document.fetched}`,
    `type: ${document.kind}`,
    "---",
    "",
  );
  return `${lines.join("\n")}\n${document.text}\n`;
}

/**
 * A {@link PageSaver} that writes each document as Markdown with front matter into a directory
 * (created when missing), atomically (temporary file + rename), and returns the file name
 * relative to that directory.
 *
 * @param saveDir - the directory, or a function of the call context
 * @returns the saver
 * @example
 * createWebFetchTool({ save: createDirectorySaver(({ threadId }) => `./sources/${threadId ?? "default"}`) });
 */
export function createDirectorySaver(saveDir: SaveDirectory): PageSaver {
  return async (document, context) => {
    const directory = resolve(typeof saveDir === "function" ? await saveDir(context) : saveDir);
    await mkdir(directory, { recursive: true });
    const name = savedFileName(document.url);
    const target = join(directory, name);
    const temporary = join(directory, `.${name}.${process.pid}.${Date.now()}.tmp`);
    try {
      await writeFile(temporary, formatSavedDocument(document), "utf8");
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true }).catch(() => {});
      throw error;
    }
    return name;
  };
}
