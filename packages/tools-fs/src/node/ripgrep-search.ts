import { type ChildProcessByStdio, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { realpathSync } from "node:fs";
import { type FileHandle, mkdir, mkdtemp, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { Readable } from "node:stream";
import { AgentoolError, secretGlobAnywhere } from "@agentool/contract";
import { rgPath as bundledRgPath } from "@vscode/ripgrep";
import { FileSystemError } from "../file-system.js";
import {
  comparePaths,
  countBudget,
  cutLine,
  type FileLister,
  isHiddenBelow,
  type ListOutcome,
  type ListRequest,
  PageCollector,
  type SearchLine,
  type SearchOutcome,
  type SearchRequest,
  type SearchScope,
  stoppedTotalAtLeast,
  type TextSearcher,
} from "../internal/search-types.js";
import { changedError, hasProcFd, isAt, openDirectoryHandle, openReadHandle } from "./safe-open.js";

/** Options of {@link createRipgrepSearcher} and {@link createRipgrepLister}. */
export interface RipgrepSearchOptions {
  /** The workspace root on disk (the same directory as the Node file system's root). */
  root: string;
  /** The `rg` binary. Default: the one shipped by `@vscode/ripgrep`. */
  rgPath?: string;
}

/** Most bytes of rg's standard error kept for messages. */
const MAX_STDERR_CHARACTERS = 4_000;

interface RipgrepRun {
  /** rg's exit code (`null` when it was killed). */
  exitCode: number | null;
  /** What rg wrote to standard error, without its `--debug` lines (capped). */
  stderr: string;
  /** Whether the run was stopped early by the record handler. */
  stopped: boolean;
}

const DEBUG_PREFIX = "rg: DEBUG|";

/**
 * Runs rg in its own process group with an empty environment and no config file, feeding each
 * output record (split on `separator`) to `onRecord` (`final` for what follows the last
 * separator); `onRecord` returning `false` kills rg (and its group) at once. With `--debug`,
 * each debug line of standard error goes to `onDebug`. The signal kills rg too and rejects with
 * the signal's reason.
 */
function runRipgrep(
  rgPath: string,
  where: PinnedScope,
  args: readonly string[],
  separator: string,
  signal: AbortSignal,
  onRecord: (record: string, final: boolean) => boolean,
  onDebug?: (line: string) => void,
): Promise<RipgrepRun> {
  return new Promise<RipgrepRun>((resolvePromise, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    // rg inherits the pinned object as fd 3 (see withPinnedScope).
    const child = spawn(rgPath, args, {
      cwd: where.cwd,
      detached: true,
      stdio:
        where.fd === undefined ? ["ignore", "pipe", "pipe"] : ["ignore", "pipe", "pipe", where.fd],
      env: {},
      windowsHide: true,
    }) as ChildProcessByStdio<null, Readable, Readable>;
    let stopped = false;
    let stderr = "";
    let pendingStderr = "";
    let pending = "";
    let settled = false;
    const killGroup = () => {
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        try {
          child.kill("SIGKILL");
        } catch {
          // already gone
        }
      }
    };
    const onAbort = () => {
      killGroup();
      if (!settled) {
        settled = true;
        reject(signal.reason);
      }
    };
    signal.addEventListener("abort", onAbort, { once: true });
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      if (stopped) return;
      pending += chunk;
      let start = 0;
      let index = pending.indexOf(separator, start);
      while (index !== -1) {
        const record = pending.slice(start, index);
        start = index + separator.length;
        if (record.length > 0 && !onRecord(record, false)) {
          stopped = true;
          killGroup();
          pending = "";
          return;
        }
        index = pending.indexOf(separator, start);
      }
      pending = pending.slice(start);
    });
    const keepStderr = (line: string) => {
      if (line.startsWith(DEBUG_PREFIX)) {
        onDebug?.(line);
        return;
      }
      if (stderr.length < MAX_STDERR_CHARACTERS)
        stderr += `${line}\n`.slice(0, MAX_STDERR_CHARACTERS - stderr.length);
    };
    child.stderr.on("data", (chunk: string) => {
      pendingStderr += chunk;
      let newline = pendingStderr.indexOf("\n");
      while (newline !== -1) {
        keepStderr(pendingStderr.slice(0, newline));
        pendingStderr = pendingStderr.slice(newline + 1);
        newline = pendingStderr.indexOf("\n");
      }
    });
    child.on("error", (error) => {
      signal.removeEventListener("abort", onAbort);
      if (settled) return;
      settled = true;
      reject(
        new FileSystemError(
          "DEPENDENCY_MISSING",
          `ripgrep could not be started (${rgPath}): ${error.message}.`,
          "Install @vscode/ripgrep for this platform, or use the JS search engine.",
        ),
      );
    });
    child.on("close", (exitCode) => {
      signal.removeEventListener("abort", onAbort);
      if (pendingStderr.length > 0) keepStderr(pendingStderr);
      if (!stopped && pending.length > 0) onRecord(pending, true);
      if (settled) return;
      settled = true;
      resolvePromise({ exitCode, stderr, stopped });
    });
  });
}

/** Where rg runs: its working directory and the descriptor it inherits as fd 3, if any. */
interface PinnedScope {
  readonly cwd: string;
  readonly fd?: number;
}

/** The descriptor rg inherits the searched directory or file on; the mirror's link names it. */
const PINNED_FD = 3;

/**
 * Runs `work` with rg pinned to the searched directory or file *object*, so that nothing swapped
 * after the workspace's check (a directory replaced by a symlink to `~/.ssh`) is followed: rg
 * follows a symlink given as its path argument, and walks by name below it.
 *
 * The root is searched from the root (the host's own directory, which no tool can swap). Any
 * other path is opened here (`O_NOFOLLOW`, `O_DIRECTORY` for a directory, non-blocking for a
 * file), and the open object must be at the checked real path (`/proc/self/fd/N`), else the call
 * fails with `INVALID_PATH`. rg then runs in a private temporary directory that mirrors the
 * workspace path: `<tmp>/<path>` is a symlink to `/proc/self/fd/3`, and rg inherits the open
 * object as its fd 3. rg reports the same workspace paths as before (`<path>/…`), globs and
 * overrides match them as before, and rg reads the parent `.gitignore` files of the object's real
 * location (it canonicalises its path argument). Without `/proc/self/fd` (macOS, Windows) the
 * path string is used after the same check — narrower, not airtight.
 */
async function withPinnedScope<T>(
  root: string,
  scope: SearchScope,
  work: (where: PinnedScope) => Promise<T>,
): Promise<T> {
  if (scope.path.length === 0) return work({ cwd: root });
  const expected = join(root, scope.path);
  let handle: FileHandle;
  try {
    handle =
      scope.pathType === "directory"
        ? await openDirectoryHandle(expected)
        : await openReadHandle(expected);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP" || code === "ENOTDIR" || code === "ENOENT" || code === "EMLINK") {
      throw changedError(scope.path);
    }
    throw error;
  }
  let mirror: string | undefined;
  try {
    if (!(await isAt(handle, expected))) throw changedError(scope.path);
    const info = await handle.stat();
    // A FIFO named as the path is still handed to rg (opened here without blocking): rg blocks on
    // it in its own process, bounded by the tool's timeout, as before.
    if (info.isDirectory() !== (scope.pathType === "directory")) throw changedError(scope.path);
    if (!hasProcFd) return await work({ cwd: root });
    mirror = await mkdtemp(join(tmpdir(), "agentool-rg-scope-"));
    const link = join(mirror, scope.path);
    await mkdir(dirname(link), { recursive: true, mode: 0o700 });
    await symlink(`/proc/self/fd/${PINNED_FD}`, link);
    return await work({ cwd: mirror, fd: handle.fd });
  } finally {
    await handle.close().catch(() => undefined);
    if (mirror !== undefined) await rm(mirror, { recursive: true, force: true });
  }
}

/**
 * The rg arguments of a scope, run inside `work`. A model's glob is NOT passed as `--glob`
 * (ripgrep's overrides whitelist files, which would re-include hidden and .gitignore'd files);
 * it goes into a temporary ignore file (ignore all, re-include directories and the glob, ignore
 * hidden names), which ranks below the
 * workspace's own ignore files, so ignored and hidden files stay out whatever the glob. Secret
 * paths are excluded with `--glob '!…'` overrides, which always win.
 */
async function withScopeArguments<T>(
  scope: SearchScope,
  work: (args: string[]) => Promise<T>,
): Promise<T> {
  const args = ["--no-config", "--no-require-git", "--no-follow"];
  const glob = scope.glob !== undefined && scope.glob.length > 0 ? scope.glob : undefined;
  if (glob !== undefined && /[\r\n]/.test(glob)) {
    throw new FileSystemError(
      "INVALID_INPUT",
      "glob must be a single line.",
      "Send one glob, e.g. 'src/**/*.ts'.",
    );
  }
  let ignoreFile: string | undefined;
  if (scope.includeHiddenAndIgnored) {
    args.push("--hidden", "--no-ignore", "--glob", "!.git");
    if (glob !== undefined) args.push("--glob", glob);
  } else if (glob !== undefined) {
    const rules = glob.startsWith("!") ? [glob.slice(1)] : ["*", "!*/", `!${glob}`, ".*"];
    ignoreFile = join(tmpdir(), `agentool-rg-${randomUUID()}.ignore`);
    await writeFile(ignoreFile, `${rules.join("\n")}\n`, { mode: 0o600 });
    args.push("--ignore-file", ignoreFile);
  }
  // Secret globs match anywhere and case-insensitively, like createSecretPathMatcher.
  for (const secret of scope.secretGlobs) args.push("--iglob", `!${secretGlobAnywhere(secret)}`);
  try {
    return await work(args);
  } finally {
    if (ignoreFile !== undefined) await rm(ignoreFile, { force: true });
  }
}

function pathArgument(scope: SearchScope): string {
  return scope.path.length === 0 ? "." : scope.path;
}

function decodeText(value: { text?: string; bytes?: string } | undefined): string {
  if (value === undefined) return "";
  if (typeof value.text === "string") return value.text;
  if (typeof value.bytes === "string") return Buffer.from(value.bytes, "base64").toString("utf8");
  return "";
}

/** ripgrep reports `./a.ts` when searching `.`; workspace paths have no `./`. */
function toWorkspacePath(reported: string): string {
  let path = reported.replace(/\\/g, "/");
  while (path.startsWith("./")) path = path.slice(2);
  return path;
}

/** Per search: whether each reported path may be shown (every match of a file repeats its path). */
const visibility = new WeakMap<SearchScope, Map<string, boolean>>();

function visible(path: string, scope: SearchScope): boolean {
  let known = visibility.get(scope);
  if (known === undefined) {
    known = new Map();
    visibility.set(scope, known);
  }
  let shown = known.get(path);
  if (shown === undefined) {
    shown =
      path.length > 0 &&
      !scope.isSecret(path) &&
      (scope.includeHiddenAndIgnored || !isHiddenBelow(path, scope.path));
    known.set(path, shown);
  }
  return shown;
}

function stripLineEnding(text: string): string {
  return text.replace(/\r?\n$/, "");
}

function byteOffsetToIndex(text: string, byteOffset: number): number {
  return Buffer.from(text, "utf8").subarray(0, byteOffset).toString("utf8").length;
}

function checkFailure(run: RipgrepRun, request: SearchRequest | ListRequest): void {
  if (run.stopped || run.exitCode === 0 || run.exitCode === 1) return;
  const stderr = run.stderr.trim();
  if (
    /regex parse error|error parsing|unclosed|unrecognized|repetition/i.test(stderr) &&
    "pattern" in request
  ) {
    throw new FileSystemError(
      "INVALID_INPUT",
      `pattern ${JSON.stringify(request.pattern)} is not a valid regular expression: ${stderr.split("\n").slice(0, 6).join(" ")}`,
      "Fix the pattern (Rust regex syntax; escape ( [ { . * + ? with a backslash), or pass literal=true.",
    );
  }
  if (/glob|invalid/i.test(stderr) && request.glob !== undefined) {
    throw new FileSystemError(
      "INVALID_INPUT",
      `glob ${JSON.stringify(request.glob)} is not valid: ${stderr.split("\n")[0] ?? ""}`,
      "Fix the glob, e.g. '**/*.ts' or 'src/**'.",
    );
  }
  // Exit code 2 with partial results (an unreadable file) is not a failure of the search.
}

function resolveRoot(root: string): string {
  try {
    return realpathSync(resolve(root));
  } catch (error) {
    throw new AgentoolError(
      `createRipgrepSearcher: root ${JSON.stringify(root)} cannot be resolved: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** An entry rg left out of a walk as hidden or ignored (from its `--debug` log). */
const IGNORING_LINE =
  /^rg: DEBUG\|ignore::walk\|.*?: ignoring (.+): Ignore\(IgnoreMatch\((.*)\)\)$/;

/** Most hidden / ignored entries passed to the empty-result probe as paths. */
const MAX_PROBE_PATHS = 1_000;

/** Most bytes of paths passed to the empty-result probe (well under the argument limit). */
const MAX_PROBE_PATH_BYTES = 64_000;

interface RipgrepJsonEvent {
  type: string;
  data: {
    path?: { text?: string; bytes?: string };
    lines?: { text?: string; bytes?: string };
    line_number?: number | null;
    submatches?: { start: number }[];
    stats?: { searches?: number };
  };
}

/** Reads one `--json` record into a line of the search, or the summary's file count. */
function parseJsonRecord(
  record: string,
  request: SearchRequest,
): { path: string; line: SearchLine } | { searches: number } | undefined {
  let event: RipgrepJsonEvent;
  try {
    event = JSON.parse(record) as RipgrepJsonEvent;
  } catch {
    return undefined;
  }
  if (event.type === "summary") return { searches: event.data.stats?.searches ?? 0 };
  if (event.type !== "match" && event.type !== "context") return undefined;
  const path = toWorkspacePath(decodeText(event.data.path));
  if (!visible(path, request)) return undefined;
  const isMatch = event.type === "match";
  const raw = stripLineEnding(decodeText(event.data.lines));
  let focus = 0;
  if (isMatch && raw.length > request.maxLineCharacters) {
    focus = byteOffsetToIndex(raw, event.data.submatches?.[0]?.start ?? 0);
  }
  const { text, cut, cutStart } = cutLine(raw, focus, request.maxLineCharacters);
  const line: SearchLine = {
    line: event.data.line_number ?? 0,
    text,
    kind: isMatch ? "match" : "context",
  };
  if (cut > 0) line.cut = cut;
  if (cutStart > 0) line.cut_start = cutStart;
  return { path, line };
}

/** Reads one `--files-with-matches` / `--count` record (`--null`), or `--stats`' file count. */
function parseRowRecord(
  record: string,
  final: boolean,
  request: SearchRequest,
): { path: string; count: number } | { searches: number } | undefined {
  const countMode = request.outputMode === "count";
  const nul = countMode ? record.lastIndexOf("\0") : -1;
  if (final || (countMode && nul === -1)) {
    // The `--stats` block after the last record.
    const searched = /(?:^|\n)(\d+) files searched(?:\n|$)/.exec(record);
    return searched === null ? undefined : { searches: Number(searched[1]) };
  }
  const path = toWorkspacePath(countMode ? record.slice(0, nul) : record);
  if (!visible(path, request)) return undefined;
  const count = countMode ? Number.parseInt(record.slice(nul + 1), 10) || 0 : 1;
  return { path, count };
}

/** The hidden or ignored entry a `--debug` line reports, when it is one the probe should open. */
function skippedEntry(line: string, request: SearchRequest): string | undefined {
  const found = IGNORING_LINE.exec(line);
  if (found === null) return undefined;
  const [, reported, reason] = found as unknown as [string, string, string];
  if (!reason.startsWith("Hidden") && !reason.startsWith("Gitignore(")) return undefined; // overrides: secret globs
  const path = toWorkspacePath(reported);
  const name = path.slice(path.lastIndexOf("/") + 1);
  if (path.length === 0 || name === ".git" || request.isSecret(path)) return undefined;
  return path;
}

/** The rg flags of an output mode. */
function modeArguments(request: SearchRequest, stats: boolean): string[] {
  const args = ["--engine=auto", request.ignoreCase ? "--ignore-case" : "--case-sensitive"];
  if (request.literal) args.push("--fixed-strings");
  if (request.outputMode === "content") {
    args.push("--json");
    if (request.contextLines > 0) args.push(`--context=${request.contextLines}`);
  } else {
    args.push(
      request.outputMode === "count" ? "--count" : "--files-with-matches",
      "--with-filename",
      "--null",
    );
    if (stats) args.push("--stats");
  }
  return args;
}

/**
 * Creates the ripgrep engine for `grep_search` (Node only). rg runs with no config file, an
 * empty environment, in its own process group; the pattern goes in as `--regexp=…` and the path
 * after `--`, so nothing a model sends is read as a flag. `.gitignore` is honoured (also outside
 * git repositories), hidden files are skipped, symlinks are not followed, every secret glob is
 * excluded with `--glob '!…'` and every reported path is checked again.
 *
 * Pages are deterministic and the early stop is kept. A first pass runs rg at full speed
 * (parallel) and collects everything up to a budget ({@link countBudget}, 500 items for the
 * default limit): when it completes, the results are sorted by path and paged exactly. When the
 * budget is exceeded, rg is killed at once and a second pass (`--sort path`, which streams in
 * path order) is killed as soon as the page and one more item are in; the total is then a lower
 * bound. Every page is thus a window of one stable path order that `offset` pages through.
 * An empty result costs at most one more process: the first pass logs (`--debug`) which hidden
 * and ignored entries it left out, and only those are searched for a match to name.
 *
 * @param options - the workspace root on disk and optionally another `rg`
 * @returns a {@link TextSearcher}
 * @throws AgentoolError when the root cannot be resolved
 * @example
 * const grep = createGrepSearchTool({ workspace, searcher: createRipgrepSearcher({ root }) });
 */
export function createRipgrepSearcher(options: RipgrepSearchOptions): TextSearcher {
  const root = resolveRoot(options.root);
  const rgPath = options.rgPath ?? bundledRgPath;
  return {
    kind: "ripgrep",
    async search(request, signal) {
      return withPinnedScope(root, request, async (where) => {
        const outcome = await withScopeArguments(request, (scopeArgs) =>
          searchPaged(rgPath, where, request, scopeArgs, signal),
        );
        if (outcome.kind === "done") return outcome.outcome;
        const hiddenMatch = await probeHidden(rgPath, where, request, outcome.skipped, signal);
        return hiddenMatch === undefined ? outcome.outcome : { ...outcome.outcome, hiddenMatch };
      });
    },
  };
}

type PagedSearch =
  | { kind: "done"; outcome: SearchOutcome }
  | { kind: "empty"; outcome: SearchOutcome; skipped: string[] | "unknown" };

async function searchPaged(
  rgPath: string,
  where: PinnedScope,
  request: SearchRequest,
  scopeArgs: readonly string[],
  signal: AbortSignal,
): Promise<PagedSearch> {
  const offset = Math.max(1, request.offset ?? 1);
  const need = offset + request.limit - 1;
  const budget = countBudget(need);
  const contentMode = request.outputMode === "content";
  const window = {
    offset,
    limit: request.limit,
    contextLines: contentMode ? request.contextLines : 0,
  };
  const patternArgs = [`--regexp=${request.pattern}`, "--", pathArgument(request)];
  const explain =
    request.explainEmpty === true && request.glob === undefined && request.pathType === "directory";

  // Pass 2 (below) streams the matches in path order. It starts while pass 1 still runs, as soon
  // as pass 1 has seen more than the page needs, so a dense pattern does not wait for pass 1 to
  // reach its budget and then pay a second start-up; pass 1 finishing under budget cancels it.
  const collector = new PageCollector(window);
  let files = 0;
  let lastPath: string | undefined;
  let matches = 0;
  const secondController = new AbortController();
  const onOuterAbort = () => secondController.abort(signal.reason);
  signal.addEventListener("abort", onOuterAbort, { once: true });
  let secondRun: Promise<RipgrepRun> | undefined;
  const startSecond = (): Promise<RipgrepRun> =>
    runRipgrep(
      rgPath,
      where,
      [...scopeArgs, "--sort=path", ...modeArguments(request, false), ...patternArgs],
      contentMode ? "\n" : request.outputMode === "count" ? "\n" : "\0",
      secondController.signal,
      (record, final) => {
        if (contentMode) {
          const parsed = parseJsonRecord(record, request);
          if (parsed === undefined || !("line" in parsed)) return true;
          if (parsed.line.kind === "match" && parsed.path !== lastPath) {
            lastPath = parsed.path;
            files += 1;
          }
          return collector.feedLine(parsed.path, parsed.line);
        }
        const parsed = parseRowRecord(record, final, request);
        if (parsed === undefined || !("path" in parsed)) return true;
        matches += parsed.count;
        return collector.feedRow(parsed.path, parsed.count);
      },
    );

  // Pass 1: parallel and unordered; complete when it finds at most `budget` items.
  const lines = new Map<string, SearchLine[]>();
  const rows: Array<{ path: string; count: number }> = [];
  let items = 0;
  let searches: number | undefined;
  const skipped: string[] = [];
  let debugSeen = false;
  let first: RipgrepRun;
  try {
    first = await runRipgrep(
      rgPath,
      where,
      [
        ...scopeArgs,
        ...modeArguments(request, true),
        ...(explain ? ["--debug"] : []),
        ...patternArgs,
      ],
      contentMode ? "\n" : request.outputMode === "count" ? "\n" : "\0",
      signal,
      (record, final) => {
        const parsed = contentMode
          ? parseJsonRecord(record, request)
          : parseRowRecord(record, final, request);
        if (parsed === undefined) return true;
        if ("searches" in parsed) {
          searches = parsed.searches;
          return true;
        }
        if ("line" in parsed) {
          let list = lines.get(parsed.path);
          if (list === undefined) {
            list = [];
            lines.set(parsed.path, list);
          }
          list.push(parsed.line);
          if (parsed.line.kind === "match") items += 1;
        } else {
          rows.push(parsed);
          items += 1;
        }
        if (items > need && secondRun === undefined) {
          secondRun = startSecond();
          // Awaited below; marked handled now so a cancelled pass 1 cannot leave it unobserved.
          secondRun.catch(() => undefined);
        }
        return items <= budget;
      },
      explain
        ? (line) => {
            debugSeen = true;
            const entry = skippedEntry(line, request);
            if (entry !== undefined && skipped.length <= MAX_PROBE_PATHS) skipped.push(entry);
          }
        : undefined,
    );
  } catch (error) {
    signal.removeEventListener("abort", onOuterAbort);
    secondController.abort();
    throw error;
  }
  if (!first.stopped) {
    signal.removeEventListener("abort", onOuterAbort);
    if (secondRun !== undefined) {
      secondController.abort();
      await secondRun.catch(() => undefined);
    }
  }
  checkFailure(first, request);

  if (!first.stopped) {
    const collector = new PageCollector(window);
    let totalMatches = 0;
    if (contentMode) {
      const paths = [...lines.keys()].sort(comparePaths);
      for (const path of paths) {
        const fileLines = lines.get(path) as SearchLine[];
        fileLines.sort((left, right) => left.line - right.line);
        for (const line of fileLines) if (!collector.feedLine(path, line)) break;
      }
      const outcome: SearchOutcome = {
        files: collector.finish(),
        total: items,
        totalFiles: paths.length,
        searchedAnyFile: paths.length > 0 || (searches ?? 1) > 0,
      };
      return finishPass1(outcome, explain, debugSeen, skipped);
    }
    rows.sort((left, right) => comparePaths(left.path, right.path));
    for (const row of rows) {
      totalMatches += row.count;
      collector.feedRow(row.path, row.count);
    }
    const outcome: SearchOutcome = {
      files: collector.finish(),
      total: rows.length,
      searchedAnyFile: rows.length > 0 || (searches ?? 1) > 0,
    };
    if (request.outputMode === "count") outcome.totalMatches = totalMatches;
    return finishPass1(outcome, explain, debugSeen, skipped);
  }

  // Pass 2: more than `budget` items exist. Stream them in path order and stop after the page.
  let second: RipgrepRun;
  try {
    second = await (secondRun ?? startSecond());
  } finally {
    signal.removeEventListener("abort", onOuterAbort);
  }
  checkFailure(second, request);
  const outcome: SearchOutcome = { files: collector.finish(), searchedAnyFile: true };
  if (second.stopped || collector.more) {
    outcome.totalAtLeast = stoppedTotalAtLeast(need);
  } else {
    // The tree shrank between the passes: what the second pass saw is all there is.
    outcome.total = collector.seen;
    if (contentMode) outcome.totalFiles = files;
    if (request.outputMode === "count") outcome.totalMatches = matches;
  }
  return { kind: "done", outcome };
}

function finishPass1(
  outcome: SearchOutcome,
  explain: boolean,
  debugSeen: boolean,
  skipped: string[],
): PagedSearch {
  if (outcome.total !== 0) return { kind: "done", outcome };
  if (!explain || !debugSeen || skipped.length > MAX_PROBE_PATHS) {
    return { kind: "empty", outcome, skipped: "unknown" };
  }
  if (skipped.length === 0) return { kind: "done", outcome };
  return { kind: "empty", outcome, skipped };
}

/**
 * The one extra process of an empty result: searches the hidden and ignored entries the first
 * pass left out (or, when they are unknown — a glob, another rg — the whole scope with hidden and
 * ignored files included) and stops at the first matching file that is not secret.
 */
async function probeHidden(
  rgPath: string,
  where: PinnedScope,
  request: SearchRequest,
  skipped: string[] | "unknown",
  signal: AbortSignal,
): Promise<string | undefined> {
  // A single file was searched as named (hidden or ignored alike): nothing more to look into.
  if (request.explainEmpty !== true || request.pathType === "file") return undefined;
  let paths = skipped === "unknown" ? [pathArgument(request)] : skipped.sort(comparePaths);
  let bytes = 0;
  for (const path of paths) bytes += Buffer.byteLength(path) + 1;
  if (bytes > MAX_PROBE_PATH_BYTES) paths = [pathArgument(request)];
  const scope: SearchScope = { ...request, includeHiddenAndIgnored: true };
  let example: string | undefined;
  await withScopeArguments(scope, async (scopeArgs) => {
    const run = await runRipgrep(
      rgPath,
      where,
      [
        ...scopeArgs,
        ...modeArguments({ ...request, outputMode: "files_with_matches" }, false),
        `--regexp=${request.pattern}`,
        "--",
        ...paths,
      ],
      "\0",
      signal,
      (record) => {
        const path = toWorkspacePath(record);
        if (!visible(path, scope)) return true;
        example = path;
        return false;
      },
    );
    checkFailure(run, request);
  });
  return example;
}

/**
 * Creates the ripgrep engine for `glob_search` (Node only): `rg --files --sortr modified` with the
 * same hardening as {@link createRipgrepSearcher}; one page of files (newest first) is returned
 * with their modification times, and the total.
 *
 * @param options - the workspace root on disk and optionally another `rg`
 * @returns a {@link FileLister}
 * @throws AgentoolError when the root cannot be resolved
 * @example
 * const glob = createGlobSearchTool({ workspace, lister: createRipgrepLister({ root }) });
 */
export function createRipgrepLister(options: RipgrepSearchOptions): FileLister {
  const root = resolveRoot(options.root);
  const rgPath = options.rgPath ?? bundledRgPath;
  return {
    kind: "ripgrep",
    async list(request, signal): Promise<ListOutcome> {
      const first = Math.max(1, request.offset ?? 1);
      const kept: string[] = [];
      let total = 0;
      const anyOnly = request.anyOnly === true;
      const run = await withPinnedScope(root, request, (where) =>
        withScopeArguments(request, (scopeArgs) =>
          runRipgrep(
            rgPath,
            where,
            [
              "--files",
              "--null",
              ...(anyOnly ? [] : ["--sortr=modified"]),
              ...scopeArgs,
              "--",
              pathArgument(request),
            ],
            "\0",
            signal,
            (record) => {
              const path = toWorkspacePath(record);
              if (!visible(path, request)) return true;
              total += 1;
              if (total >= first && kept.length < request.limit) kept.push(path);
              return !anyOnly;
            },
          ),
        ),
      );
      checkFailure(run, request);
      const files = await Promise.all(
        kept.map(async (path) => {
          try {
            return { path, modifiedMs: (await stat(join(root, path))).mtimeMs };
          } catch {
            return { path, modifiedMs: 0 };
          }
        }),
      );
      files.sort(
        (left, right) => right.modifiedMs - left.modifiedMs || comparePaths(left.path, right.path),
      );
      return { files, total };
    },
  };
}
