import { createHash } from "node:crypto";
import { lstat, mkdir, open, rename, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { ToolContext } from "@agentool/contract";
import type { FetchedDocument, PageSaver } from "../web-fetch.js";

/** Where pages are saved: a directory, or a function of the call context (per-thread folders). */
export type SaveDirectory = string | ((context: ToolContext) => string | Promise<string>);

/**
 * The ignore files written into a save folder the saver creates: `.gitignore` keeps the pages out
 * of git (`*` covers the ignore files too), and `.ignore` — read by ripgrep and the fs family's
 * tools before `.gitignore`, never by git — keeps them searchable by `grep_search` and
 * `glob_search`.
 */
const SAVE_FOLDER_IGNORE_FILES: ReadonlyArray<readonly [string, string]> = [
  [
    ".gitignore",
    "# agentool web_fetch: saved pages stay out of git; delete this file to commit them\n*\n",
  ],
  [
    ".ignore",
    "# agentool web_fetch: saved pages stay searchable (read before .gitignore, not by git)\n!*\n",
  ],
];

/**
 * Marks a save folder the saver just created as its own: its pages are never committed unless
 * the user removes the `.gitignore`, and stay visible to searches. A file already there is kept.
 */
async function markSaveFolder(directory: string): Promise<void> {
  for (const [name, content] of SAVE_FOLDER_IGNORE_FILES)
    await writeFile(join(directory, name), content, { flag: "wx" }).catch(() => undefined);
}

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
 * Tells whether the saver may write `target` for `url`: when nothing is there, or when it is a
 * regular file whose front matter starts with that URL (the saver's own copy of it). A link, a
 * directory or any other file is never replaced.
 */
async function isFreeOrOwnCopy(target: string, url: string): Promise<boolean> {
  try {
    if (!(await lstat(target)).isFile()) return false;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return true;
    throw error;
  }
  const expected = Buffer.from(`---\nurl: ${yamlString(url)}\n`, "utf8");
  const handle = await open(target, "r");
  try {
    const head = Buffer.alloc(expected.length);
    const { bytesRead } = await handle.read(head, 0, expected.length, 0);
    return bytesRead === expected.length && head.equals(expected);
  } finally {
    await handle.close();
  }
}

/**
 * A {@link PageSaver} that writes each document as Markdown with front matter into a directory
 * (created when missing, with a `.gitignore` of `*` so the pages stay out of git and an `.ignore`
 * of `!*` so ripgrep and the fs tools still search them; a folder that already exists gets
 * neither), atomically (temporary file + rename), and returns the file name
 * relative to that directory. It only adds files and refreshes its own copy of the same URL: a
 * file at that name which is not such a copy (another URL's, a user's, a link) is left as it
 * is and the save fails with a message saying so (the page is still returned, with `save_error`).
 *
 * @param saveDir - the directory, or a function of the call context
 * @returns the saver
 * @example
 * createWebFetchTool({ save: createDirectorySaver(({ threadId }) => `./sources/${threadId ?? "default"}`) });
 */
export function createDirectorySaver(saveDir: SaveDirectory): PageSaver {
  return async (document, context) => {
    const directory = resolve(typeof saveDir === "function" ? await saveDir(context) : saveDir);
    if ((await mkdir(directory, { recursive: true })) !== undefined)
      await markSaveFolder(directory);
    const name = savedFileName(document.url);
    const target = join(directory, name);
    if (!(await isFreeOrOwnCopy(target, document.url))) {
      throw new Error(
        `${name} already exists in the save directory and is not a saved copy of ${document.url}; it was not replaced.`,
      );
    }
    const temporary = join(directory, `.${name}.${process.pid}.${Date.now()}.tmp`);
    try {
      await writeFile(temporary, formatSavedDocument(document), { encoding: "utf8", flag: "wx" });
      await rename(temporary, target);
    } catch (error) {
      // EEXIST: the temporary name was taken by a file this call did not write; leave it.
      if ((error as NodeJS.ErrnoException).code !== "EEXIST")
        await rm(temporary, { force: true }).catch(() => {});
      throw error;
    }
    return name;
  };
}
