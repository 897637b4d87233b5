import type { ToolContext } from "@agentool/contract";
import type { DirectoryEntry, FileSystem } from "../file-system.js";
import type { ResolvedPath, Workspace } from "../workspace.js";
import {
  createIgnoreMatcher,
  IGNORE_FILE_NAMES,
  type IgnoreRule,
  loadIgnoreRules,
  matchIgnoreRules,
} from "./gitignore.js";
import { fileVersionKey, type LineTotals } from "./line-totals.js";
import {
  BINARY_SNIFF_BYTES,
  decodeText,
  detectBom,
  detectLineEnding,
  isBinary,
  type LineEnding,
  type TextEncodingName,
} from "./text-codec.js";

/** Figures of one file. */
export interface FileFigures {
  /** The file, as a workspace path. */
  path: string;
  /** Size in bytes (exact). */
  bytes: number;
  /** Lines (a final line ending does not start another line); `null` for a binary file. */
  lines: number | null;
  /** Whether the file looks binary (NUL bytes or many control characters). */
  binary: boolean;
}

/** The figures of the files on one page of a directory. */
export interface ListedFigures {
  /** Files on this page. */
  files: number;
  /** Their bytes. */
  bytes: number;
  /** Their lines (text files only). */
  lines: number;
  /** How many of them are binary (no lines counted). */
  binary_files: number;
}

/** What analysing one file found. */
export interface Analysis {
  lines: number | null;
  binary: boolean;
  encoding: TextEncodingName | null;
  lineEnding: LineEnding | null;
  invalidBytes: boolean;
  streamed: boolean;
}

function countTextLines(text: string): number {
  if (text.length === 0) return 0;
  let lines = 0;
  let index = text.indexOf("\n");
  while (index !== -1) {
    lines += 1;
    index = text.indexOf("\n", index + 1);
  }
  return text.endsWith("\n") ? lines : lines + 1;
}

/** Counts lines by reading the file in chunks: memory stays at one chunk whatever the size. */
async function streamLines(
  fileSystem: FileSystem,
  real: string,
  chunkBytes: number,
  signal: AbortSignal,
): Promise<Analysis> {
  const reader = await fileSystem.openReader(real);
  try {
    const head = await reader.read(0, Math.min(reader.size, BINARY_SNIFF_BYTES));
    if (isBinary(head)) {
      return {
        lines: null,
        binary: true,
        encoding: null,
        lineEnding: null,
        invalidBytes: false,
        streamed: true,
      };
    }
    const encoding = detectBom(head) ?? "utf-8";
    const unit = encoding === "utf-16le" || encoding === "utf-16be" ? 2 : 1;
    const newlineOffset = encoding === "utf-16be" ? 1 : 0;
    let newlines = 0;
    let crlf = 0;
    let previousWasCarriageReturn = false;
    let lastUnitIsNewline = false;
    let position = encoding === "utf-8-bom" ? 3 : unit === 2 ? 2 : 0;
    const size = reader.size;
    // Keep chunks aligned to the code unit.
    const step = chunkBytes - (chunkBytes % unit);
    while (position < size) {
      signal.throwIfAborted();
      const chunk = await reader.read(position, Math.min(step, size - position));
      if (chunk.length === 0) break;
      if (unit === 1) {
        // UTF-8: find each newline natively instead of visiting every byte.
        let index = chunk.indexOf(0x0a);
        if (index === 0 && previousWasCarriageReturn) crlf += 1;
        while (index !== -1) {
          newlines += 1;
          if (index > 0 && chunk[index - 1] === 0x0d) crlf += 1;
          index = chunk.indexOf(0x0a, index + 1);
        }
        previousWasCarriageReturn = chunk[chunk.length - 1] === 0x0d;
        lastUnitIsNewline = chunk[chunk.length - 1] === 0x0a;
        position += chunk.length;
        continue;
      }
      for (let index = 0; index + unit - 1 < chunk.length; index += unit) {
        const low = chunk[index + newlineOffset] as number;
        const high = unit === 2 ? (chunk[index + 1 - newlineOffset] as number) : 0;
        const isNewline = low === 0x0a && high === 0;
        if (isNewline) {
          newlines += 1;
          if (previousWasCarriageReturn) crlf += 1;
        }
        previousWasCarriageReturn = low === 0x0d && high === 0;
        lastUnitIsNewline = isNewline;
      }
      position += chunk.length;
    }
    const textBytes = size - (encoding === "utf-8-bom" ? 3 : unit === 2 ? 2 : 0);
    const lines = textBytes <= 0 ? 0 : lastUnitIsNewline ? newlines : newlines + 1;
    const lineEnding: LineEnding =
      newlines === 0 ? "none" : crlf === newlines ? "crlf" : crlf === 0 ? "lf" : "mixed";
    return { lines, binary: false, encoding, lineEnding, invalidBytes: false, streamed: true };
  } finally {
    await reader.close();
  }
}

/** Directories whose file sizes a walk reads at once while it goes on. */
const SIZING_DIRECTORIES_IN_FLIGHT = 4;

/** Page files analysed at once. */
const ANALYSES_IN_FLIGHT = 8;

/** A file kept for the page. */
export interface PageFile {
  path: string;
  real: string;
  bytes: number;
}

/** The figures of a page's files. */
export interface PageAnalysis {
  figures: FileFigures[];
  listed: ListedFigures;
}

/** What a directory walk counted. */
export interface DirectoryWalk {
  page: PageFile[];
  /** The page's analysis, when the walk could start it early (the page full and sized). */
  analysis?: Promise<PageAnalysis>;
  files: number;
  directories: number;
  bytes: number;
  stopped: boolean;
  skippedHidden: number;
  skippedIgnored: number;
}

/** An entry of a listing: sized when the seam stat'ed it (`readDirectory`), else not yet. */
type ListingEntry = Pick<DirectoryEntry, "name" | "type"> & { size?: number };

/** Whether a listed entry may be an ignore file (any letter case: the seam may not care). */
function isIgnoreFile(entry: ListingEntry): boolean {
  return IGNORE_FILE_NAMES.includes(entry.name.toLowerCase());
}

function join(parent: string, name: string): string {
  return parent.length === 0 ? name : `${parent}/${name}`;
}

function compareNames(left: ListingEntry, right: ListingEntry): number {
  return left.name < right.name ? -1 : left.name > right.name ? 1 : 0;
}

/**
 * Reads files for their figures (lines, binary, encoding, line endings), streaming those above
 * the threshold, and the page of a directory listing a few files at a time.
 *
 * @internal
 */
export class FileAnalyzer {
  readonly #fileSystem: FileSystem;
  readonly #streamThreshold: number;
  readonly #chunkBytes: number;
  readonly #lineTotals: LineTotals | undefined;

  /**
   * @param lineTotals - where a streamed file's line count is left for read_file (see
   *   {@link LineTotals})
   */
  constructor(
    fileSystem: FileSystem,
    streamThreshold: number,
    chunkBytes: number,
    lineTotals?: LineTotals,
  ) {
    this.#fileSystem = fileSystem;
    this.#streamThreshold = streamThreshold;
    this.#chunkBytes = chunkBytes;
    this.#lineTotals = lineTotals;
  }

  /** The figures of one file: read whole, or streamed in chunks above the threshold. */
  async analyze(real: string, size: number, signal: AbortSignal): Promise<Analysis> {
    if (size > this.#streamThreshold) return this.#stream(real, signal);
    const bytes = await this.#fileSystem.readFile(real);
    const decoded = decodeText(bytes);
    if (decoded === undefined) {
      return {
        lines: null,
        binary: true,
        encoding: null,
        lineEnding: null,
        invalidBytes: false,
        streamed: false,
      };
    }
    return {
      lines: countTextLines(decoded.text),
      binary: false,
      encoding: decoded.encoding,
      lineEnding: detectLineEnding(decoded.text),
      invalidBytes: decoded.invalidBytes,
      streamed: false,
    };
  }

  /** A streamed count; its line total is remembered when the file stayed the same version. */
  async #stream(real: string, signal: AbortSignal): Promise<Analysis> {
    const before = this.#lineTotals === undefined ? undefined : await this.#fileSystem.stat(real);
    const analysis = await streamLines(this.#fileSystem, real, this.#chunkBytes, signal);
    if (before !== undefined && analysis.lines !== null) {
      const after = await this.#fileSystem.stat(real);
      const key = fileVersionKey(real, before);
      if (after !== undefined && fileVersionKey(real, after) === key)
        this.#lineTotals?.set(key, analysis.lines);
    }
    return analysis;
  }
  /**
   * Analyses the page's files in order, a few at a time (never more than one file over the
   * streaming threshold's worth of bytes in memory at once).
   */
  async analyzePage(page: readonly PageFile[], context: ToolContext): Promise<PageAnalysis> {
    const figures: FileFigures[] = [];
    const listed: ListedFigures = { files: 0, bytes: 0, lines: 0, binary_files: 0 };
    let index = 0;
    while (index < page.length) {
      context.signal.throwIfAborted();
      const group: PageFile[] = [];
      let groupBytes = 0;
      while (index < page.length && group.length < ANALYSES_IN_FLIGHT) {
        const file = page[index] as PageFile;
        const held = file.bytes > this.#streamThreshold ? this.#chunkBytes : file.bytes;
        if (
          group.length > 0 &&
          groupBytes + held > Math.max(this.#streamThreshold, this.#chunkBytes)
        )
          break;
        context.progress({ message: file.path, completed: index, total: page.length });
        group.push(file);
        groupBytes += held;
        index += 1;
      }
      const analyses = await Promise.all(
        group.map((file) => this.analyze(file.real, file.bytes, context.signal)),
      );
      for (const [position, analysis] of analyses.entries()) {
        const file = group[position] as PageFile;
        listed.files += 1;
        listed.bytes += file.bytes;
        if (analysis.binary) listed.binary_files += 1;
        else listed.lines += analysis.lines ?? 0;
        figures.push({
          path: file.path,
          bytes: file.bytes,
          lines: analysis.lines,
          binary: analysis.binary,
        });
      }
    }
    return { figures, listed };
  }
}

/** Options of {@link DirectoryStatsWalk}. */
export interface DirectoryStatsWalkOptions {
  /** The workspace (its secret-path policy). */
  workspace: Workspace;
  /** Analyses the page's files (started early once the page is full and sized). */
  analyzer: FileAnalyzer;
  /** Entries counted before the walk may stop (once past the page). */
  maxScanEntries: number;
  /** Files before the page. */
  start: number;
  /** The last file on the page (1-based position). */
  end: number;
  /** The call's signal and progress. */
  context: ToolContext;
}

/**
 * Walks a directory depth first, names in code-point order, counting files, subdirectories and
 * bytes, and keeps the files at positions `start + 1 … end` (1-based) for the page. Once the
 * page is full and past it the scan cap reached, it stops (lower bounds from there).
 *
 * Each entry is judged once, from its directory's listing: secret (the path shown and, only when
 * the walk reached the directory through a symlink, the real one), hidden, then ignored — the
 * rules of the directory are gathered once per directory, and its own ignore files read only
 * when its listing holds one. A seam that lists names without a stat of each
 * (`readDirectoryNames` + `readEntrySizes`) sizes only the files the walk counts, with one
 * open of each directory, while the walk goes on; directories, symlinks, hidden, secret and
 * ignored entries, and everything past the cap, are never stat'ed. Once the page is full and
 * its files sized, the page's analysis starts while the walk goes on counting.
 *
 * @internal
 */
export class DirectoryStatsWalk {
  readonly #workspace: Workspace;
  readonly #fileSystem: FileSystem;
  readonly #analyzer: FileAnalyzer;
  readonly #maxScanEntries: number;
  readonly #start: number;
  readonly #end: number;
  readonly #context: ToolContext;
  readonly #readNames: FileSystem["readDirectoryNames"];
  readonly #readSizes: FileSystem["readEntrySizes"];
  readonly #namesOnly: boolean;
  readonly #walk: DirectoryWalk = {
    page: [],
    files: 0,
    directories: 0,
    bytes: 0,
    stopped: false,
    skippedHidden: 0,
    skippedIgnored: 0,
  };
  #visited = 0;
  readonly #sizing: Array<Promise<void>> = [];
  /** The sizings of page files, and how many page files are sized or being sized. */
  readonly #pageSizing: Array<Promise<void>> = [];
  #pageFilesSized = 0;

  /** @param options - the workspace, the analyzer, the cap, the page's bounds, the call */
  constructor(options: DirectoryStatsWalkOptions) {
    this.#workspace = options.workspace;
    this.#fileSystem = options.workspace.fileSystem;
    this.#analyzer = options.analyzer;
    this.#maxScanEntries = options.maxScanEntries;
    this.#start = options.start;
    this.#end = options.end;
    this.#context = options.context;
    this.#readNames = this.#fileSystem.readDirectoryNames?.bind(this.#fileSystem);
    this.#readSizes = this.#fileSystem.readEntrySizes?.bind(this.#fileSystem);
    this.#namesOnly = this.#readNames !== undefined && this.#readSizes !== undefined;
  }

  /**
   * Walks the directory.
   *
   * @param resolved - the directory
   * @returns what the walk counted and the page it kept
   */
  async run(resolved: ResolvedPath): Promise<DirectoryWalk> {
    const matcher = createIgnoreMatcher(this.#fileSystem);
    // The walked directory's rules (from the workspace root down) and whether it is ignored
    // itself (then so is everything in it); each subdirectory the walk enters is not ignored.
    const [walkedRules, walkedIgnored] = await Promise.all([
      matcher.rulesFor(resolved.real),
      matcher.isIgnored(resolved.real, true),
    ]);
    // Every sizing (and an early analysis) settles before the walk returns or throws; the first
    // failure is thrown.
    try {
      await this.#visit(resolved.path, resolved.real, walkedRules, walkedIgnored, true);
    } catch (error) {
      await Promise.allSettled([...this.#sizing, this.#walk.analysis]);
      throw error;
    }
    for (const outcome of await Promise.allSettled(this.#sizing)) {
      if (outcome.status === "rejected") throw outcome.reason;
    }
    return this.#walk;
  }

  #startAnalysisWhenReady(): void {
    const walk = this.#walk;
    if (walk.analysis !== undefined || walk.page.length < this.#end - this.#start) return;
    if (this.#pageFilesSized < walk.page.length) return;
    const analysis = Promise.all(this.#pageSizing).then(() =>
      this.#analyzer.analyzePage(walk.page, this.#context),
    );
    analysis.catch(() => undefined);
    walk.analysis = analysis;
  }

  /** Reads the sizes of `names` in `real` while the walk goes on (a few directories at once). */
  async #sizeLater(
    real: string,
    names: string[],
    pageFiles: Array<PageFile | undefined>,
    pageFileCount: number,
  ): Promise<void> {
    const sizing = this.#sizing;
    while (sizing.length >= SIZING_DIRECTORIES_IN_FLIGHT) await sizing.shift();
    const walk = this.#walk;
    const readSizes = this.#readSizes as NonNullable<FileSystem["readEntrySizes"]>;
    const task = readSizes(real, names).then((sizes) => {
      for (const [index, size] of sizes.entries()) {
        walk.bytes += size;
        const pageFile = pageFiles[index];
        if (pageFile !== undefined) pageFile.bytes = size;
      }
    });
    // Awaited below; marked handled so a failure while the walk is elsewhere is not "unhandled".
    task.catch(() => undefined);
    sizing.push(task);
    if (pageFileCount > 0) {
      this.#pageSizing.push(task);
      this.#pageFilesSized += pageFileCount;
      this.#startAnalysisWhenReady();
    }
  }

  async #visit(
    shown: string,
    real: string,
    inherited: readonly IgnoreRule[],
    ignored: boolean,
    walked: boolean,
  ): Promise<void> {
    this.#context.signal.throwIfAborted();
    const walk = this.#walk;
    const start = this.#start;
    const end = this.#end;
    const entries: ListingEntry[] = this.#namesOnly
      ? await (this.#readNames as NonNullable<FileSystem["readDirectoryNames"]>)(real)
      : await this.#fileSystem.readDirectory(real);
    entries.sort(compareNames);
    // The walked directory's rules came from the matcher; a subdirectory adds its own ignore
    // files, read only when its listing holds one.
    const rules =
      walked || !entries.some(isIgnoreFile)
        ? inherited
        : [...inherited, ...(await loadIgnoreRules(this.#fileSystem, real))];
    const sameReal = shown === real;
    const unsizedNames: string[] = [];
    const unsizedPageFiles: Array<PageFile | undefined> = [];
    let unsizedPageFileCount = 0;
    for (const entry of entries) {
      const shownChild = join(shown, entry.name);
      const realChild = sameReal ? shownChild : join(real, entry.name);
      // The directories above were checked (resolved, or walked into as entries): the entry
      // alone is.
      if (
        this.#workspace.isSecretEntry(shownChild) ||
        (!sameReal && this.#workspace.isSecretEntry(realChild))
      ) {
        continue;
      }
      if (entry.name.startsWith(".")) {
        walk.skippedHidden += 1;
        continue;
      }
      if (this.#visited >= this.#maxScanEntries && walk.files > end) {
        walk.stopped = true;
        break;
      }
      const isDirectory = entry.type === "directory";
      if (ignored || matchIgnoreRules(rules, realChild, isDirectory) === true) {
        walk.skippedIgnored += 1;
        continue;
      }
      this.#visited += 1;
      if (isDirectory) {
        walk.directories += 1;
        await this.#visit(shownChild, realChild, rules, false, false);
        if (walk.stopped) break;
      } else if (entry.type === "file") {
        walk.files += 1;
        const onPage = walk.files > start && walk.files <= end;
        const pageFile: PageFile | undefined = onPage
          ? { path: shownChild, real: realChild, bytes: entry.size ?? 0 }
          : undefined;
        if (pageFile !== undefined) walk.page.push(pageFile);
        if (entry.size !== undefined) {
          walk.bytes += entry.size;
          if (pageFile !== undefined) {
            this.#pageFilesSized += 1;
            this.#startAnalysisWhenReady();
          }
        } else {
          unsizedNames.push(entry.name);
          unsizedPageFiles.push(pageFile);
          if (pageFile !== undefined) unsizedPageFileCount += 1;
        }
      }
    }
    if (unsizedNames.length > 0) {
      await this.#sizeLater(real, unsizedNames, unsizedPageFiles, unsizedPageFileCount);
    }
  }
}
