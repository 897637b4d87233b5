import { type ChildProcessByStdio, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { closeSync, constants, fstatSync, openSync, realpathSync } from "node:fs";
import { mkdir, mkdtemp, rm, stat, symlink, writeFile } from "node:fs/promises";
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
import {
  changedError,
  hasProcFd,
  isDescriptorAt,
  O_DIRECTORY,
  O_NOFOLLOW,
  PROC_FD,
} from "./safe-open.js";
import { isPlainEntryPath, probeSkippedEntries } from "./skipped-probe.js";

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
      let start = 0;
      let newline = pendingStderr.indexOf("\n", start);
      while (newline !== -1) {
        keepStderr(pendingStderr.slice(start, newline));
        start = newline + 1;
        newline = pendingStderr.indexOf("\n", start);
      }
      pendingStderr = pendingStderr.slice(start);
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

/**
 * Where rg runs: its working directory, the descriptor it inherits as fd 3 (if any), the path
 * argument it searches, and what turns the paths it reports into workspace paths.
 */
interface PinnedScope {
  readonly cwd: string;
  readonly fd?: number;
  /** rg's path argument: `.`, or the workspace path (in the mirror). */
  readonly path: string;
  /** Prefixed to what rg reports (`""`, or `"<path>/"` when rg runs inside the scope). */
  readonly prefix: string;
}

/** The descriptor rg inherits the searched directory or file on; the mirror's link names it. */
const PINNED_FD = 3;

/** Something made for one search (an open handle, a temporary file) and how to undo it. */
interface Held<T> {
  readonly value: T;
  release(): Promise<void>;
}

const nothingToRelease = async (): Promise<void> => undefined;

/**
 * Pins rg to the searched directory or file *object*, so that nothing swapped after the
 * workspace's check (a directory replaced by a symlink to `~/.ssh`) is followed: rg follows a
 * symlink given as its path argument, and walks by name below it.
 *
 * The root is searched from the root (the host's own directory, which no tool can swap). Any
 * other path is opened here (`O_NOFOLLOW`, `O_DIRECTORY` for a directory, non-blocking for a
 * file), and the open object must be at the checked real path (`/proc/self/fd/N`), else the call
 * fails with `INVALID_PATH`; rg inherits the open object as its fd 3. A directory whose globs
 * (the model's and the secret ones) do not depend on where paths start ({@link anchorFree}) is
 * then searched from inside: rg's working directory is `/proc/self/fd/3` (entered after fd 3 is
 * in place, so it is the object itself), its path is `.`, and the paths it reports are prefixed
 * with the workspace path. Otherwise rg runs in a private temporary directory that mirrors the
 * workspace path: `<tmp>/<path>` is a symlink to `/proc/self/fd/3`, so rg reports the same
 * workspace paths as before (`<path>/…`) and root-relative globs match them as before (each path
 * rg opens then goes through that link, which costs a few percent). Either way rg reads the
 * parent `.gitignore` files of the object's real location (it canonicalises its path). Without
 * `/proc/self/fd` (macOS, Windows) the path string is used after the same check — narrower, not
 * airtight.
 *
 * The mirror, when one is needed, is made while the object is opened and checked (it names no
 * object until rg inherits one), and removed with the handle when the search ends.
 */
async function pinScope(root: string, scope: SearchScope): Promise<Held<PinnedScope>> {
  if (scope.path.length === 0) {
    return { value: { cwd: root, path: ".", prefix: "" }, release: nothingToRelease };
  }
  const expected = join(root, scope.path);
  const inside =
    hasProcFd &&
    scope.pathType === "directory" &&
    [...scopeGlobs(scope)].every((glob) => anchorFree(glob, scope.path));
  const mirrorMade = hasProcFd && !inside ? makeMirror(scope.path) : Promise.resolve(undefined);
  const removeMirror = async () => {
    const mirror = await mirrorMade.catch(() => undefined);
    if (mirror !== undefined) await rm(mirror, { recursive: true, force: true });
  };
  // Opened and checked synchronously (microseconds each; through the thread pool, each a hand-off).
  let descriptor: number;
  try {
    descriptor = openSync(
      expected,
      scope.pathType === "directory"
        ? constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW
        : constants.O_RDONLY | O_NOFOLLOW | constants.O_NONBLOCK,
    );
  } catch (error) {
    await removeMirror();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP" || code === "ENOTDIR" || code === "ENOENT" || code === "EMLINK") {
      throw changedError(scope.path);
    }
    throw error;
  }
  const opened = descriptor;
  let closed = false;
  const release = async () => {
    if (!closed) {
      closed = true;
      closeSync(opened);
    }
    await removeMirror();
  };
  try {
    if (!isDescriptorAt(opened, expected)) throw changedError(scope.path);
    // A FIFO named as the path is still handed to rg (opened here without blocking): rg blocks on
    // it in its own process, bounded by the tool's timeout, as before.
    if (fstatSync(opened).isDirectory() !== (scope.pathType === "directory"))
      throw changedError(scope.path);
    if (inside) {
      const where = {
        cwd: `/proc/self/fd/${PINNED_FD}`,
        fd: opened,
        path: ".",
        prefix: `${scope.path}/`,
      };
      return { value: where, release };
    }
    const mirror = await mirrorMade;
    if (mirror === undefined)
      return { value: { cwd: root, path: scope.path, prefix: "" }, release };
    return { value: { cwd: mirror, fd: opened, path: scope.path, prefix: "" }, release };
  } catch (error) {
    await release();
    throw error;
  }
}

/** Every glob rg matches paths against in a scope: the model's and the secret ones. */
function* scopeGlobs(scope: SearchScope): Iterable<string> {
  if (scope.glob !== undefined && scope.glob.length > 0) yield scope.glob;
  for (const secret of scope.secretGlobs) yield secretGlobAnywhere(secret);
}

/**
 * Whether a glob matches the same workspace paths below `scopePath` whether rg's paths start at
 * the root or at the scope: a glob with no `/` (but a trailing one) matches names at any depth;
 * one that starts with `**` + `/` does too, unless its first fixed segment could match a segment of
 * the scope itself (then it is not, to be safe). Anything else is anchored and needs the mirror.
 */
function anchorFree(glob: string, scopePath: string): boolean {
  let body = glob.startsWith("!") ? glob.slice(1) : glob;
  if (body.endsWith("/")) body = body.slice(0, -1);
  if (!body.includes("/")) return true;
  if (!body.startsWith("**/")) return false;
  const rest = body.slice(3);
  if (!rest.includes("/")) return true;
  const first = rest.slice(0, rest.indexOf("/"));
  if (/[*?[\]{}\\]/.test(first)) return false;
  const lower = first.toLowerCase();
  return scopePath.split("/").every((segment) => segment.toLowerCase() !== lower);
}

/** A private directory where `<path>` is a symlink to `/proc/self/fd/3` (see {@link pinScope}). */
async function makeMirror(path: string): Promise<string> {
  const mirror = await mkdtemp(join(tmpdir(), "agentool-rg-scope-"));
  try {
    const link = join(mirror, path);
    if (path.includes("/")) await mkdir(dirname(link), { recursive: true, mode: 0o700 });
    await symlink(`/proc/self/fd/${PINNED_FD}`, link);
    return mirror;
  } catch (error) {
    await rm(mirror, { recursive: true, force: true });
    throw error;
  }
}

/** Writes a private temporary ignore file (one rule a line). */
async function writeIgnoreFile(rules: readonly string[]): Promise<Held<string>> {
  const path = join(tmpdir(), `agentool-rg-${randomUUID()}.ignore`);
  await writeFile(path, `${rules.join("\n")}\n`, { mode: 0o600 });
  return { value: path, release: () => rm(path, { force: true }) };
}

/** The glob of a scope, checked to be one line (it becomes a line of an ignore file). */
function scopeGlob(scope: SearchScope): string | undefined {
  const glob = scope.glob !== undefined && scope.glob.length > 0 ? scope.glob : undefined;
  if (glob !== undefined && /[\r\n]/.test(glob)) {
    throw new FileSystemError(
      "INVALID_INPUT",
      "glob must be a single line.",
      "Send one glob, e.g. 'src/**/*.ts'.",
    );
  }
  return glob;
}

/** The ignore rules a glob becomes (see {@link scopeArguments}); `hidden` keeps hidden names out. */
function globRules(glob: string, hidden: boolean): string[] {
  if (glob.startsWith("!")) return [glob.slice(1)];
  return hidden ? ["*", "!*/", `!${glob}`, ".*"] : ["*", "!*/", `!${glob}`];
}

/** The hardening every rg run starts with. */
const BASE_ARGUMENTS = ["--no-config", "--no-require-git", "--no-follow"] as const;

/** What widens a run to hidden and ignored files (never `.git`). */
const HIDDEN_AND_IGNORED_ARGUMENTS = ["--hidden", "--no-ignore", "--glob", "!.git"] as const;

/**
 * Secret globs match anywhere and case-insensitively, like createSecretPathMatcher. The plain
 * ones that match at any depth go into one `--iglob '!**' + '/{a,b,…}'` (the same paths as one
 * `--iglob` each): rg compiles one glob instead of dozens at every start (the default list:
 * ~3 ms of a search as separate globs, ~5 ms with `--debug`; ~2 ms combined).
 */
function secretArguments(scope: SearchScope): string[] {
  const args: string[] = [];
  const anywhere: string[] = [];
  for (const secret of scope.secretGlobs) {
    const glob = secretGlobAnywhere(secret);
    const body = glob.slice(3);
    if (glob.startsWith("**/") && body.length > 0 && !/[{}[\]\\,!]/.test(body)) anywhere.push(body);
    else args.push("--iglob", `!${glob}`);
  }
  if (anywhere.length === 1) args.push("--iglob", `!**/${anywhere[0]}`);
  else if (anywhere.length > 1) args.push("--iglob", `!**/{${anywhere.join(",")}}`);
  return args;
}

/**
 * The rg arguments of a scope. A model's glob is NOT passed as `--glob` (ripgrep's overrides
 * whitelist files, which would re-include hidden and .gitignore'd files); it goes into a
 * temporary ignore file (ignore all, re-include directories and the glob, ignore hidden names),
 * which ranks below the workspace's own ignore files, so ignored and hidden files stay out
 * whatever the glob. Secret paths are excluded with `--iglob '!…'` overrides, which always win
 * ({@link secretArguments}).
 */
async function scopeArguments(scope: SearchScope): Promise<Held<readonly string[]>> {
  const args: string[] = [...BASE_ARGUMENTS];
  const glob = scopeGlob(scope);
  let ignoreFile: Held<string> | undefined;
  if (scope.includeHiddenAndIgnored) {
    args.push(...HIDDEN_AND_IGNORED_ARGUMENTS);
    if (glob !== undefined) args.push("--glob", glob);
  } else if (glob !== undefined) {
    ignoreFile = await writeIgnoreFile(globRules(glob, true));
    args.push("--ignore-file", ignoreFile.value);
  }
  args.push(...secretArguments(scope));
  return { value: args, release: ignoreFile?.release ?? nothingToRelease };
}

/**
 * Runs `work` with rg pinned to the scope ({@link pinScope}) and the scope's arguments
 * ({@link scopeArguments}), both prepared at the same time, and releases both afterwards.
 */
async function withScope<T>(
  root: string,
  scope: SearchScope,
  work: (where: PinnedScope, scopeArgs: readonly string[]) => Promise<T>,
): Promise<T> {
  const [pinned, argued] = await Promise.allSettled([pinScope(root, scope), scopeArguments(scope)]);
  if (pinned.status === "rejected" || argued.status === "rejected") {
    await Promise.all(
      [pinned, argued].map((held) =>
        held.status === "fulfilled" ? held.value.release() : undefined,
      ),
    );
    // A changed path is reported before a bad glob, as when they were checked one after the other.
    throw pinned.status === "rejected" ? pinned.reason : (argued as PromiseRejectedResult).reason;
  }
  try {
    return await work(pinned.value.value, argued.value.value);
  } finally {
    await Promise.all([pinned.value.release(), argued.value.release()]);
  }
}

function decodeText(value: { text?: string; bytes?: string } | undefined): string {
  if (value === undefined) return "";
  if (typeof value.text === "string") return value.text;
  if (typeof value.bytes === "string") return Buffer.from(value.bytes, "base64").toString("utf8");
  return "";
}

/**
 * The workspace path of a path rg reports: ripgrep reports `./a.ts` when searching `.`
 * (workspace paths have no `./`), relative to where it runs (`prefix` puts the scope back).
 */
function toWorkspacePath(reported: string, prefix: string): string {
  let path = reported.replace(/\\/g, "/");
  while (path.startsWith("./")) path = path.slice(2);
  if (prefix.length === 0) return path;
  return path.length === 0 || path === "." ? prefix.slice(0, -1) : `${prefix}${path}`;
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

/**
 * Most hidden / ignored entries the empty-result probe reaches one by one (as rules of an ignore
 * file); past it the probe walks the whole scope with hidden and ignored files.
 */
const MAX_PROBE_PATHS = 1_000;

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
  prefix: string,
): { path: string; line: SearchLine } | { searches: number } | undefined {
  let event: RipgrepJsonEvent;
  try {
    event = JSON.parse(record) as RipgrepJsonEvent;
  } catch {
    return undefined;
  }
  if (event.type === "summary") return { searches: event.data.stats?.searches ?? 0 };
  if (event.type !== "match" && event.type !== "context") return undefined;
  const path = toWorkspacePath(decodeText(event.data.path), prefix);
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
  prefix: string,
): { path: string; count: number } | { searches: number } | undefined {
  const countMode = request.outputMode === "count";
  const nul = countMode ? record.lastIndexOf("\0") : -1;
  if (final || (countMode && nul === -1)) {
    // The `--stats` block after the last record.
    const searched = /(?:^|\n)(\d+) files searched(?:\n|$)/.exec(record);
    return searched === null ? undefined : { searches: Number(searched[1]) };
  }
  const path = toWorkspacePath(countMode ? record.slice(0, nul) : record, prefix);
  if (!visible(path, request)) return undefined;
  const count = countMode ? Number.parseInt(record.slice(nul + 1), 10) || 0 : 1;
  return { path, count };
}

/**
 * The hidden or ignored entry a `--debug` line reports, when it is one the probe should reach:
 * left out as hidden or by an ignore file (`.gitignore`, `.ignore`, `.rgignore`); not a secret
 * (overrides), not `.git`.
 */
function skippedEntry(line: string, request: SearchRequest, prefix: string): string | undefined {
  if (!line.includes(": ignoring ")) return undefined;
  const found = IGNORING_LINE.exec(line);
  if (found === null) return undefined;
  const [, reported, reason] = found as unknown as [string, string, string];
  if (!reason.startsWith("Hidden") && !reason.startsWith("Gitignore(")) return undefined; // overrides: secret globs
  const path = toWorkspacePath(reported, prefix);
  // rg logs names raw, so a file name with a line break can forge a line: plain paths only.
  if (!isPlainEntryPath(path) || /[\r\n]/.test(path) || request.isSecret(path)) return undefined;
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
 *
 * An empty result costs at most one more process ({@link probeHidden}). Without a glob, the
 * first pass logs (`--debug`) which hidden and ignored entries it left out — rg's own decision,
 * `.gitignore`, `.ignore`, `.rgignore` and hidden names alike — and only those are searched, by a
 * walk of the scope that reaches nothing else; none left out, no process. With a glob, one walk
 * of the whole scope with hidden and ignored files, the glob applied as in the first pass.
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
      return withScope(root, request, async (where, scopeArgs) => {
        const context: RipgrepContext = { root, rgPath, where };
        // A single file was searched as named (hidden or ignored alike): nothing to explain.
        const explain = request.explainEmpty === true && request.pathType === "directory";
        // rg logs each left-out entry with dozens of unbuffered writes (~70 µs): without a glob
        // those are the few hidden and ignored entries; with one, every file it leaves out.
        const skipped =
          explain && scopeGlob(request) === undefined
            ? new SkippedEntries(request, where.prefix)
            : undefined;
        const outcome = await searchPaged(context, request, scopeArgs, signal, skipped);
        if (!explain || outcome.total !== 0) return outcome;
        const hiddenMatch = await probeHidden(context, request, skipped, signal);
        return hiddenMatch === undefined ? outcome : { ...outcome, hiddenMatch };
      });
    },
  };
}

/** What every rg run of one search shares. */
interface RipgrepContext {
  /** The workspace root on disk (real). */
  readonly root: string;
  readonly rgPath: string;
  readonly where: PinnedScope;
}

/** {@link runRipgrep} in a search's context. */
function runIn(
  context: RipgrepContext,
  args: readonly string[],
  separator: string,
  signal: AbortSignal,
  onRecord: (record: string, final: boolean) => boolean,
  onDebug?: (line: string) => void,
): Promise<RipgrepRun> {
  return runRipgrep(context.rgPath, context.where, args, separator, signal, onRecord, onDebug);
}

async function searchPaged(
  context: RipgrepContext,
  request: SearchRequest,
  scopeArgs: readonly string[],
  signal: AbortSignal,
  skipped: SkippedEntries | undefined,
): Promise<SearchOutcome> {
  const offset = Math.max(1, request.offset ?? 1);
  const need = offset + request.limit - 1;
  const budget = countBudget(need);
  const contentMode = request.outputMode === "content";
  const window = {
    offset,
    limit: request.limit,
    contextLines: contentMode ? request.contextLines : 0,
  };
  const prefix = context.where.prefix;
  const patternArgs = [`--regexp=${request.pattern}`, "--", context.where.path];

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
    runIn(
      context,
      [...scopeArgs, "--sort=path", ...modeArguments(request, false), ...patternArgs],
      contentMode ? "\n" : request.outputMode === "count" ? "\n" : "\0",
      secondController.signal,
      (record, final) => {
        if (contentMode) {
          const parsed = parseJsonRecord(record, request, prefix);
          if (parsed === undefined || !("line" in parsed)) return true;
          if (parsed.line.kind === "match" && parsed.path !== lastPath) {
            lastPath = parsed.path;
            files += 1;
          }
          return collector.feedLine(parsed.path, parsed.line);
        }
        const parsed = parseRowRecord(record, final, request, prefix);
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
  let first: RipgrepRun;
  try {
    first = await runIn(
      context,
      [
        ...scopeArgs,
        ...modeArguments(request, true),
        ...(skipped === undefined ? [] : ["--debug"]),
        ...patternArgs,
      ],
      contentMode ? "\n" : request.outputMode === "count" ? "\n" : "\0",
      signal,
      (record, final) => {
        const parsed = contentMode
          ? parseJsonRecord(record, request, prefix)
          : parseRowRecord(record, final, request, prefix);
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
        // A visible match: the result is not empty, nothing hidden needs naming.
        if (items > 0) skipped?.stop();
        if (items > need && secondRun === undefined) {
          secondRun = startSecond();
          // Awaited below; marked handled now so a cancelled pass 1 cannot leave it unobserved.
          secondRun.catch(() => undefined);
        }
        return items <= budget;
      },
      skipped === undefined ? undefined : (line) => skipped.note(line),
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
      return {
        files: collector.finish(),
        total: items,
        totalFiles: paths.length,
        searchedAnyFile: paths.length > 0 || (searches ?? 1) > 0,
      };
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
    return outcome;
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
  return outcome;
}

/** A path as a literal gitignore pattern (every glob-special character escaped). */
function gitignoreLiteral(path: string): string {
  return path.replace(/[\\*?[\]{}!#,\s]/g, (character) => `\\${character}`);
}

/**
 * The ignore rules of a probe walk that reaches only `entries` below the scope: each directory on
 * the way to an entry ignores all its children but the next ones on the way (rules anchored to
 * rg's working directory, where the paths it reports start: `scopePath` and `entries` are given
 * that way).
 */
function probeRules(scopePath: string, entries: readonly string[]): string[] {
  const below = scopePath.length === 0 ? "" : `${scopePath}/`;
  const kept = new Map<string, string[]>();
  const isEntry = new Set<string>();
  for (const entry of entries) {
    if (!entry.startsWith(below) || entry.length === below.length) continue;
    isEntry.add(entry);
    let child = entry;
    for (;;) {
      const slash = child.lastIndexOf("/");
      const parent = slash === -1 ? "" : child.slice(0, slash);
      const known = kept.get(parent);
      if (known !== undefined) {
        known.push(child);
        break; // its own way up is already there
      }
      kept.set(parent, [child]);
      if (parent === scopePath) break;
      child = parent;
    }
  }
  const anchored = (path: string) => `/${gitignoreLiteral(path)}`;
  const rules: string[] = [];
  for (const [directory, children] of kept) {
    rules.push(directory.length === 0 ? "/*" : `${anchored(directory)}/*`);
    for (const child of children)
      rules.push(isEntry.has(child) ? `!${anchored(child)}` : `!${anchored(child)}/`);
  }
  return rules;
}

/** The hidden and ignored entries a first pass reports leaving out (`--debug`), in order. */
class SkippedEntries {
  /** Workspace paths of the entries (none inside another: rg does not enter what it skips). */
  readonly paths: string[] = [];
  /** Whether rg logged anything at all (an rg that does not cannot tell what it skipped). */
  logged = false;
  /** More than {@link MAX_PROBE_PATHS} entries. */
  overflowed = false;
  private stopped = false;
  private readonly request: SearchRequest;
  private readonly prefix: string;

  constructor(request: SearchRequest, prefix: string) {
    this.request = request;
    this.prefix = prefix;
  }

  /** Reads one `--debug` line of the first pass. */
  note(line: string): void {
    this.logged = true;
    if (this.stopped || this.overflowed) return;
    const entry = skippedEntry(line, this.request, this.prefix);
    if (entry === undefined) return;
    if (this.paths.length >= MAX_PROBE_PATHS) {
      this.overflowed = true;
      this.paths.length = 0;
      return;
    }
    this.paths.push(entry);
  }

  /** The first pass found a visible match: the entries will not be needed. */
  stop(): void {
    this.stopped = true;
    this.paths.length = 0;
  }
}

/**
 * The one extra process of an empty result: a walk with hidden and ignored files included,
 * stopped at the first matching file that is not secret. Without a glob it reaches only the
 * entries the first pass reported leaving out ({@link probeRules}) — no process at all when there
 * are none — on one thread (cheaper than a pool for a few entries, and the same file every time
 * for an unchanged tree). With a glob (whose first pass logs nothing, see
 * {@link createRipgrepSearcher}), or when the entries are unknown (an rg that logs nothing) or
 * too many, it walks the whole scope in parallel, the glob applied by the same ignore rules as
 * in the first pass; the first pass found nothing visible, so any match is hidden or ignored.
 * No path is handed to rg by name, so no symlink is followed.
 *
 * @returns the workspace path of the first matching hidden or ignored file, if any
 */
async function probeHidden(
  context: RipgrepContext,
  request: SearchRequest,
  skipped: SkippedEntries | undefined,
  signal: AbortSignal,
): Promise<string | undefined> {
  const where = context.where;
  let rules: readonly string[];
  const entriesOnly = skipped?.logged === true && !skipped.overflowed;
  if (skipped !== undefined && entriesOnly) {
    if (skipped.paths.length === 0) return undefined;
    // A few entries and a plain-text pattern: searched here, no second process.
    const probeBase =
      where.fd !== undefined
        ? { path: `${PROC_FD}/${where.fd}`, workspacePath: request.path }
        : request.path.length === 0
          ? { path: context.root, workspacePath: "" }
          : undefined;
    if (probeBase !== undefined) {
      const verdict = await probeSkippedEntries(probeBase, request, skipped.paths, signal);
      if (verdict.decided) return verdict.example;
    }
    // The rules are anchored where rg runs: strip what it prefixes to the paths it reports.
    const base = where.path === "." ? "" : where.path;
    rules = probeRules(
      base,
      skipped.paths.map((entry) => entry.slice(where.prefix.length)),
    );
  } else {
    const glob = scopeGlob(request);
    rules = glob === undefined ? [] : globRules(glob, false);
  }
  const rulesFile = rules.length === 0 ? undefined : await writeIgnoreFile(rules);
  const scope: SearchScope = { ...request, includeHiddenAndIgnored: true };
  let example: string | undefined;
  try {
    await runIn(
      context,
      [
        ...BASE_ARGUMENTS,
        // `--sort=path` would cost ~5 ms more than one thread, whose walk order is as stable.
        ...(entriesOnly ? ["--threads=1"] : []),
        ...HIDDEN_AND_IGNORED_ARGUMENTS,
        ...(rulesFile === undefined ? [] : ["--ignore-file", rulesFile.value]),
        ...secretArguments(request),
        ...modeArguments({ ...request, outputMode: "files_with_matches" }, false),
        `--regexp=${request.pattern}`,
        "--",
        where.path,
      ],
      "\0",
      signal,
      (record) => {
        const path = toWorkspacePath(record, where.prefix);
        if (!visible(path, scope)) return true;
        example = path;
        return false;
      },
    );
  } finally {
    await rulesFile?.release();
  }
  // A probe that fails (an unreadable entry) names nothing; the first pass checked the pattern.
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
      const run = await withScope(root, request, (where, scopeArgs) =>
        runRipgrep(
          rgPath,
          where,
          [
            "--files",
            "--null",
            ...(anyOnly ? [] : ["--sortr=modified"]),
            ...scopeArgs,
            "--",
            where.path,
          ],
          "\0",
          signal,
          (record) => {
            const path = toWorkspacePath(record, where.prefix);
            if (!visible(path, request)) return true;
            total += 1;
            if (total >= first && kept.length < request.limit) kept.push(path);
            return !anyOnly;
          },
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
