import { lstatSync } from "node:fs";
import { join } from "node:path";
import type { FileLister, Workspace } from "@agentool/tools-fs";
import { readSourceText } from "../ast-grep/source-file.js";
import {
  type CodeLanguage,
  isParsedLanguage,
  languageForPath,
  type ParsedLanguage,
} from "../tree-sitter/languages.js";
import { preloadLanguages } from "../tree-sitter/parse-pool.js";
import type { FileFacts, FileFactsCache } from "./file-facts-cache.js";
import type { ListingCache } from "./listing-cache.js";
import { type LexicalStyle, scanNames } from "./scan-names.js";

/**
 * The first step of `repo_map`: the source files of a scope (the workspace's lister: `.gitignore`,
 * hidden and secret files honoured), each with its cached or fresh lexical scan. Only files whose
 * size or mtime changed since the last call are read.
 *
 * @internal
 */

/** A source file of the map, with its facts. */
export interface MappedFile {
  path: string;
  facts: FileFacts;
}

/** Files of the scope left out of the map, by reason. */
export interface MapSkipped {
  /** Over the size cap. */
  too_large: number;
  /** Not UTF-8 text, or gone or unreadable while mapping. */
  unreadable: number;
  /** Past the file cap (the newest were kept). */
  over_file_cap: number;
}

/** What {@link collectFiles} found. */
export interface CollectedFiles {
  /** The mapped files, in path order. */
  files: MappedFile[];
  /** Files of the scope in a mapped language (before caps). */
  sourceFiles: number;
  /** Files left out. */
  skipped: MapSkipped;
  /** Files read and scanned on this call (the rest came from the cache). */
  scanned: number;
  /** A key that changes whenever a mapped file changes (path, size, mtime). */
  fingerprint: string;
}

/** What {@link collectFiles} needs. */
export interface CollectRequest {
  workspace: Workspace;
  lister: FileLister;
  cache: FileFactsCache;
  /** The last listing, reused while its directories are unchanged (workspaces on disk only). */
  listing: ListingCache;
  /** The real workspace path of the scope (`""` for the root). */
  path: string;
  pathType: "directory" | "file";
  maxFiles: number;
  maxFileBytes: number;
  signal: AbortSignal;
}

/** Languages a map covers (CSS and the heuristic-only formats are not code to rank). */
function mappedLanguage(path: string): ParsedLanguage | undefined {
  const language = languageForPath(path);
  if (language === undefined || !isParsedLanguage(language) || language === "css") return undefined;
  return language;
}

/**
 * How a language writes comments and strings, for the lexical scan.
 *
 * @param language - a mapped language
 * @returns its lexical style
 */
export function lexicalStyle(language: CodeLanguage): LexicalStyle {
  if (language === "python" || language === "ruby" || language === "bash") return "hash";
  if (language === "php") return "php";
  return "c";
}

/** A file's size, mtime and identity (the form the workspace's stat gives: device and inode). */
type FileStamp = { size: number; mtimeMs: number; identity?: string };

function statOnDisk(root: string | undefined, path: string): FileStamp | undefined {
  if (root === undefined) return undefined;
  try {
    const info = lstatSync(join(root, path), { throwIfNoEntry: false });
    return info?.isFile()
      ? { size: info.size, mtimeMs: info.mtimeMs, identity: `${info.dev}:${info.ino}` }
      : undefined;
  } catch {
    return undefined;
  }
}

async function statFile(
  request: CollectRequest,
  root: string | undefined,
  path: string,
): Promise<FileStamp | undefined> {
  if (root !== undefined) return statOnDisk(root, path);
  const info = await request.workspace.fileSystem.stat(path).catch(() => undefined);
  if (info?.type !== "file") return undefined;
  const stamp: FileStamp = { size: info.size, mtimeMs: info.modifiedMs ?? 0 };
  if (info.identity !== undefined) stamp.identity = info.identity;
  return stamp;
}

/** The scope's files, newest first, as the workspace's lister sees them. */
async function listPaths(request: CollectRequest): Promise<string[]> {
  const { workspace } = request;
  const listed = await request.lister.list(
    {
      path: request.path,
      pathType: request.pathType,
      glob: undefined,
      includeHiddenAndIgnored: false,
      isSecret: (path) => workspace.isSecret(path),
      secretGlobs: workspace.secretPaths,
      limit: 1_000_000,
    },
    request.signal,
  );
  return listed.files.map((file) => file.path);
}

/**
 * Lists the scope's source files and brings each one's facts up to date.
 *
 * @param request - the workspace, lister, cache, scope and caps
 * @returns the mapped files in path order and what was left out
 */
export async function collectFiles(request: CollectRequest): Promise<CollectedFiles> {
  const { workspace, cache } = request;
  cache.makeRoom();
  const root = workspace.fileSystem.kind === "node" ? workspace.fileSystem.displayRoot : undefined;
  // The WebAssembly runtime compiles while rg lists (its grammars once the languages are known).
  preloadLanguages();
  const scopeKey = `${request.pathType}:${request.path}`;
  let paths = root === undefined ? undefined : request.listing.get(root, scopeKey);
  if (paths === undefined) {
    const takenAt = Date.now();
    paths = await listPaths(request);
    if (root !== undefined)
      request.listing.set(root, scopeKey, request.path, request.pathType, paths, takenAt);
  }
  const languages = new Set<ParsedLanguage>();
  const candidates = paths.filter((path) => {
    const language = mappedLanguage(path);
    if (language !== undefined) languages.add(language);
    return language !== undefined;
  });
  preloadLanguages(languages);
  const skipped: MapSkipped = { too_large: 0, unreadable: 0, over_file_cap: 0 };
  // The lister answers newest first: past the cap, the newest files are kept.
  const kept = candidates.slice(0, request.maxFiles);
  skipped.over_file_cap = candidates.length - kept.length;
  kept.sort((left, right) => (left < right ? -1 : left > right ? 1 : 0));
  const files: MappedFile[] = [];
  const misses: Array<FileStamp & { path: string; slot: number }> = [];
  const keyParts: string[] = [];
  for (const path of kept) {
    const stat = await statFile(request, root, path);
    if (stat === undefined) {
      skipped.unreadable += 1;
      continue;
    }
    if (stat.size > request.maxFileBytes) {
      skipped.too_large += 1;
      continue;
    }
    keyParts.push(`${path}\u0000${stat.size}\u0000${stat.mtimeMs}\u0000${stat.identity ?? ""}`);
    const facts = cache.get(path, stat.size, stat.mtimeMs, stat.identity);
    if (facts === undefined) misses.push({ path, ...stat, slot: files.length });
    files.push({ path, facts: facts as FileFacts });
  }
  const failed = new Set<number>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < misses.length) {
      request.signal.throwIfAborted();
      const miss = misses[next] as (typeof misses)[number];
      next += 1;
      const source = await readSourceText(workspace, miss.path, request.maxFileBytes);
      if (!("text" in source)) {
        failed.add(miss.slot);
        if (source.skip === "too_large") skipped.too_large += 1;
        else skipped.unreadable += 1;
        continue;
      }
      const language = mappedLanguage(miss.path) as CodeLanguage;
      const facts: FileFacts = {
        size: miss.size,
        mtimeMs: miss.mtimeMs,
        ...(miss.identity === undefined ? {} : { identity: miss.identity }),
        language,
        scan: scanNames(source.text, lexicalStyle(language), cache.idOf),
      };
      cache.set(miss.path, facts);
      (files[miss.slot] as MappedFile).facts = facts;
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, misses.length) }, worker));
  return {
    files: failed.size === 0 ? files : files.filter((_, slot) => !failed.has(slot)),
    sourceFiles: candidates.length,
    skipped,
    scanned: misses.length - failed.size,
    fingerprint: `${cache.generation}\n${keyParts.join("\n")}`,
  };
}
