import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { realpathSync } from "node:fs";
import { rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { AgentoolError } from "@agentool/contract";
import { rgPath as bundledRgPath } from "@vscode/ripgrep";
import { FileSystemError } from "../file-system.js";
import {
  comparePaths,
  cutLine,
  type FileLister,
  isHiddenBelow,
  type ListOutcome,
  type ListRequest,
  type SearchFileResult,
  type SearchLine,
  type SearchOutcome,
  type SearchRequest,
  type SearchScope,
  type TextSearcher,
} from "../internal/search-types.js";

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
  /** What rg wrote to standard error (capped). */
  stderr: string;
  /** Whether the run was stopped early by the record handler. */
  stopped: boolean;
}

/**
 * Runs rg in its own process group with an empty environment and no config file, feeding each
 * output record (split on `separator`) to `onRecord`; `onRecord` returning `false` kills rg (and
 * its group) at once. The signal kills it too and rejects with the signal's reason.
 */
function runRipgrep(
  rgPath: string,
  cwd: string,
  args: readonly string[],
  separator: string,
  signal: AbortSignal,
  onRecord: (record: string) => boolean,
): Promise<RipgrepRun> {
  return new Promise<RipgrepRun>((resolvePromise, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const child = spawn(rgPath, args, {
      cwd,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: {},
      windowsHide: true,
    });
    let stopped = false;
    let stderr = "";
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
        if (record.length > 0 && !onRecord(record)) {
          stopped = true;
          killGroup();
          pending = "";
          return;
        }
        index = pending.indexOf(separator, start);
      }
      pending = pending.slice(start);
    });
    child.stderr.on("data", (chunk: string) => {
      if (stderr.length < MAX_STDERR_CHARACTERS)
        stderr += chunk.slice(0, MAX_STDERR_CHARACTERS - stderr.length);
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
      if (!stopped && pending.length > 0) onRecord(pending);
      if (settled) return;
      settled = true;
      resolvePromise({ exitCode, stderr, stopped });
    });
  });
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
  for (const secret of scope.secretGlobs) args.push("--glob", `!${secret}`);
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

function visible(path: string, scope: SearchScope): boolean {
  if (path.length === 0 || scope.isSecret(path)) return false;
  return scope.includeHiddenAndIgnored || !isHiddenBelow(path, scope.path);
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

/** Whether any file of the scope exists (rg `--files`, stopped at the first one). */
async function anyFile(
  rgPath: string,
  root: string,
  scope: SearchScope,
  signal: AbortSignal,
): Promise<boolean> {
  let found = false;
  await withScopeArguments(scope, (scopeArgs) =>
    runRipgrep(
      rgPath,
      root,
      ["--files", "--null", ...scopeArgs, "--", pathArgument(scope)],
      "\0",
      signal,
      (record) => {
        if (!visible(toWorkspacePath(record), scope)) return true;
        found = true;
        return false;
      },
    ),
  );
  return found;
}

interface ContentState {
  files: Map<string, SearchFileResult>;
  found: number;
  overflow: number;
  lastKept: { path: string; line: number } | undefined;
  searches: number | undefined;
}

/**
 * Creates the ripgrep engine for `grep_search` (Node only). rg runs with `--json`, no config
 * file, an empty environment, in its own process group; the pattern goes in as `--regexp=…`
 * and the path after `--`, so nothing a model sends is read as a flag. `.gitignore` is honoured
 * (also outside git repositories), hidden files are skipped, symlinks are not followed, every
 * secret glob is excluded with `--glob '!…'` and every reported path is checked again. rg is
 * killed as soon as more than `limit` results have arrived, and when the signal aborts.
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
      const outcome = await withScopeArguments(request, (scopeArgs) =>
        searchOnce(rgPath, root, request, scopeArgs, signal),
      );
      if (outcome.files.length === 0 && !outcome.searchedAnyFile) {
        outcome.searchedAnyFile = await anyFile(rgPath, root, request, signal);
      }
      return outcome;
    },
  };
}

async function searchOnce(
  rgPath: string,
  root: string,
  request: SearchRequest,
  scopeArgs: readonly string[],
  signal: AbortSignal,
): Promise<SearchOutcome> {
  {
    const args = [...scopeArgs, "--engine=auto"];
    args.push(request.ignoreCase ? "--ignore-case" : "--case-sensitive");
    if (request.literal) args.push("--fixed-strings");
    const contentMode = request.outputMode === "content";
    if (contentMode) {
      args.push("--json");
      if (request.contextLines > 0) args.push(`--context=${request.contextLines}`);
    } else if (request.outputMode === "files_with_matches") {
      args.push("--files-with-matches", "--null");
    } else {
      args.push("--count", "--with-filename", "--null");
    }
    args.push(`--regexp=${request.pattern}`, "--", pathArgument(request));

    let outcome: SearchOutcome;
    if (contentMode) {
      const state: ContentState = {
        files: new Map(),
        found: 0,
        overflow: 0,
        lastKept: undefined,
        searches: undefined,
      };
      const run = await runRipgrep(rgPath, root, args, "\n", signal, (record) =>
        handleJson(record, request, state),
      );
      checkFailure(run, request);
      const files = [...state.files.values()].filter((file) => file.count > 0);
      files.sort((left, right) => comparePaths(left.path, right.path));
      outcome = {
        files,
        truncated: state.overflow > 0,
        overflow: state.overflow,
        searchedAnyFile: files.length > 0 || (state.searches ?? 0) > 0,
      };
      if (files.length > 0 || state.searches !== undefined) return outcome;
      return { ...outcome, searchedAnyFile: false };
    } else {
      const files: SearchFileResult[] = [];
      let overflow = 0;
      const countMode = request.outputMode === "count";
      const run = await runRipgrep(
        rgPath,
        root,
        args,
        countMode ? "\n" : "\0",
        signal,
        (record) => {
          let path = record;
          let count = 1;
          if (countMode) {
            const nul = record.lastIndexOf("\0");
            if (nul === -1) return true;
            path = record.slice(0, nul);
            count = Number.parseInt(record.slice(nul + 1), 10) || 0;
          }
          path = toWorkspacePath(path);
          if (!visible(path, request)) return true;
          if (files.length >= request.limit) {
            overflow += 1;
            return false;
          }
          files.push({ path, count, lines: [] });
          return true;
        },
      );
      checkFailure(run, request);
      files.sort((left, right) => comparePaths(left.path, right.path));
      outcome = { files, truncated: overflow > 0, overflow, searchedAnyFile: files.length > 0 };
    }
    return outcome;
  }
}

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

function handleJson(record: string, request: SearchRequest, state: ContentState): boolean {
  let event: RipgrepJsonEvent;
  try {
    event = JSON.parse(record) as RipgrepJsonEvent;
  } catch {
    return true;
  }
  if (event.type === "summary") {
    state.searches = event.data.stats?.searches;
    return true;
  }
  if (event.type !== "match" && event.type !== "context") return true;
  const path = toWorkspacePath(decodeText(event.data.path));
  if (!visible(path, request)) return true;
  const lineNumber = event.data.line_number ?? 0;
  const isMatch = event.type === "match";
  if (isMatch && state.found >= request.limit) {
    state.overflow += 1;
    return false;
  }
  if (!isMatch && state.found >= request.limit) {
    // After the limit only the trailing context of the last kept match is wanted.
    const last = state.lastKept;
    if (last === undefined || last.path !== path || lineNumber > last.line + request.contextLines)
      return true;
  }
  let file = state.files.get(path);
  if (file === undefined) {
    file = { path, count: 0, lines: [] };
    state.files.set(path, file);
  }
  const raw = stripLineEnding(decodeText(event.data.lines));
  let focus = 0;
  if (isMatch && raw.length > request.maxLineCharacters) {
    focus = byteOffsetToIndex(raw, event.data.submatches?.[0]?.start ?? 0);
  }
  const { text, cut } = cutLine(raw, focus, request.maxLineCharacters);
  const line: SearchLine = { line: lineNumber, text, kind: isMatch ? "match" : "context" };
  if (cut > 0) line.cut = cut;
  file.lines.push(line);
  if (isMatch) {
    file.count += 1;
    state.found += 1;
    state.lastKept = { path, line: lineNumber };
  }
  return true;
}

/**
 * Creates the ripgrep engine for `glob_search` (Node only): `rg --files --sortr modified` with the
 * same hardening as {@link createRipgrepSearcher}; the newest `limit` files are returned with
 * their modification times.
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
      const kept: string[] = [];
      let omitted = 0;
      const run = await withScopeArguments(request, (scopeArgs) =>
        runRipgrep(
          rgPath,
          root,
          ["--files", "--null", "--sortr=modified", ...scopeArgs, "--", pathArgument(request)],
          "\0",
          signal,
          (record) => {
            const path = toWorkspacePath(record);
            if (!visible(path, request)) return true;
            if (kept.length < request.limit) kept.push(path);
            else omitted += 1;
            return true;
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
      return { files, omitted };
    },
  };
}
