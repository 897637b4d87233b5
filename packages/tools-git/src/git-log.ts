import {
  defineTool,
  formatCount,
  formatPageMarker,
  formatTruncationMarker,
  givenCallArguments,
  isOffsetPastEnd,
  joinSentences,
  listWords,
  type MountedTools,
  type NextCallValue,
  offsetPastEnd,
  ok,
  pagingInputShape,
  parseOptions,
  type Tool,
  type ToolResult,
} from "@agentool/contract";
import { z } from "zod";
import type { GitToolOptions } from "./git-status.js";
import { checkFilterText } from "./internal/filter-text.js";
import { guard, refuseWith } from "./internal/git-failure.js";
import { confinePath } from "./internal/paths.js";
import { resolveCommit } from "./internal/revisions.js";
import { createSettings, failFromGit, gitToolOptionsShape } from "./internal/tool-support.js";

/** The default name of the log tool. */
export const GIT_LOG_TOOL_NAME = "git_log";

/** Commits returned when the model gives no limit. */
export const DEFAULT_LOG_LIMIT = 10;

/** Default cap on `limit`. */
export const DEFAULT_MAX_LOG_LIMIT = 100;

/** Longest message body shown per commit in the rendered text, in characters. */
const MAX_RENDERED_MESSAGE_CHARACTERS = 4_000;

/** One commit in a log. */
export interface GitCommitSummary {
  /** The full hash. */
  hash: string;
  /** The abbreviated hash. */
  short_hash: string;
  /** The full message, trimmed (the rendered text cuts very long ones). */
  message: string;
  /** The author's name. */
  author: string;
  /** The author's email — only when the call asked for it (`include_email: true`). */
  author_email?: string;
  /** The author date, ISO 8601 with its time zone (the rendered text shows the day only). */
  date: string;
}

/** What `git_log` returns. */
export interface GitLogToolData {
  /** This page of commits, newest first. */
  commits: GitCommitSummary[];
  /** The 1-based position of the page's first commit among the matching ones. */
  offset: number;
  /** Matching commits in all (exact, the same on every page: `git rev-list --count` with the same filters). */
  total: number;
  /** The `offset` of the next page; absent on the last page. */
  next_offset?: number;
  /** Whether matching commits after this page were left out. */
  truncated: boolean;
  /** The filters as given, repeated by the next-page call. */
  path?: string;
  /** The starting revision as given. */
  ref?: string;
  /** The `since` filter as given. */
  since?: string;
  /** The `until` filter as given. */
  until?: string;
  /** The `author` filter as given. */
  author?: string;
  /** Whether emails were asked for. */
  include_email: boolean;
  /** The call's arguments as given, besides offset: the next-page marker repeats them all. */
  call_arguments: Record<string, NextCallValue>;
  /** Why the list is empty, when it is. */
  empty_reason?: string;
}

/** Options of {@link createGitLogTool}. */
export interface GitLogToolOptions extends GitToolOptions {
  /** Most commits one call may return. Default {@link DEFAULT_MAX_LOG_LIMIT} (100). */
  maxLimit?: number;
}

function createLogInputSchema(maxLimit: number) {
  return z.object({
    path: z.string().optional().describe("Only commits that touched this file or directory."),
    ...pagingInputShape({
      unit: "commit",
      defaultLimit: DEFAULT_LOG_LIMIT,
      maxLimit,
      maxOffset: 100_000_000,
      offsetDescription: "1-based first matching commit (default 1).",
      limitDescription: `Most commits (default ${DEFAULT_LOG_LIMIT}).`,
    }),
    ref: z.string().optional().describe("Start from this branch, tag or commit instead of HEAD."),
    since: z
      .string()
      .optional()
      .describe("Only commits after this date, e.g. '2 weeks ago' or '2024-05-01'."),
    until: z.string().optional().describe("Only commits before this date."),
    author: z.string().optional().describe("Author name or email contains this (any case)."),
    include_email: z.boolean().optional().describe("Also return authors' emails (default false)."),
  });
}

/** The log tool's input schema (with the default limit cap). */
export const gitLogInputSchema = createLogInputSchema(DEFAULT_MAX_LOG_LIMIT);

/** The log tool's type. */
export type GitLogTool = Tool<typeof gitLogInputSchema, GitLogToolData>;

/** Field aliases `git_log` accepts silently (alias → field). */
export const GIT_LOG_ALIASES: Readonly<Record<string, string>> = {
  max_count: "limit",
  n: "limit",
  revision: "ref",
  branch: "ref",
  file_path: "path",
  after: "since",
  before: "until",
};

function defaultDescription(mounted: MountedTools): string {
  const users = mounted.filter(["git_show", "git_diff"]);
  return joinSentences([
    "List commits, newest first, with how many match in all.",
    `For history, when a file changed (path)${users.length > 0 ? `, or a commit for ${listWords(users.map((tool) => (tool === "git_diff" ? "git_diff ref" : tool)))}` : ""}.`,
    "A cut list ends with a marker naming the next call. Read-only.",
  ]);
}

const logOptionsSchema = z.object({
  ...gitToolOptionsShape,
  maxLimit: z.number().int().min(1).max(10_000).optional(),
});

const FIELD = "\x1f";

/** What {@link formatGitLog} needs besides the data. */
export interface GitLogFormatOptions {
  /** The tool's name, for the next-page call. Default `"git_log"`. */
  toolName?: string;
  /** The name of the mounted tool that shows one whole commit (`git_show`), if any. */
  showTool?: string;
}

/**
 * Renders a log for the model: one block per commit — short hash, day, author, subject, then
 * the body indented — and the contract's page marker when more commits match.
 *
 * @param data - the log tool's data
 * @param options - the tool's name and the mounted show tool
 * @returns model-facing text
 * @example
 * formatGitLog(result.data); // "a1b2c3d 2024-05-01 Ada — Fix the parser\n…"
 */
export function formatGitLog(data: GitLogToolData, options: GitLogFormatOptions = {}): string {
  if (data.commits.length === 0) return `No commits: ${data.empty_reason ?? "none matched."}`;
  const blocks = data.commits.map((commit) => {
    const [subject = "", ...body] = commit.message.split("\n");
    let rest = body.join("\n").trim();
    if (rest.length > MAX_RENDERED_MESSAGE_CHARACTERS) {
      const omitted = rest.length - MAX_RENDERED_MESSAGE_CHARACTERS;
      rest = `${rest.slice(0, MAX_RENDERED_MESSAGE_CHARACTERS)}\n${formatTruncationMarker({
        omitted,
        unit: "characters",
        next:
          options.showTool === undefined
            ? "the rest of this message is not shown"
            : `${options.showTool} with revision="${commit.short_hash}" shows the whole message`,
      })}`;
    }
    const who =
      commit.author_email === undefined
        ? commit.author
        : `${commit.author} <${commit.author_email}>`;
    const head = `${commit.short_hash} ${commit.date.slice(0, 10)} ${who} — ${subject}`;
    return rest.length === 0 ? head : `${head}\n${rest.replace(/^/gm, "    ")}`;
  });
  if (data.offset > 1 || data.truncated) {
    const last = data.offset + data.commits.length - 1;
    blocks.unshift(
      `Commits ${formatCount(data.offset)}–${formatCount(last)} of ${formatCount(data.total)}, newest first:`,
    );
  }
  if (data.next_offset !== undefined) {
    blocks.push(
      formatPageMarker({
        tool: options.toolName ?? GIT_LOG_TOOL_NAME,
        nextOffset: data.next_offset,
        omitted: data.total - data.next_offset + 1,
        unit: "commits",
        args: data.call_arguments,
      }),
    );
  }
  return blocks.join("\n");
}

/**
 * Creates the `git_log` tool: commit history with path, ref, date and author filters, paged
 * with `offset` (1-based) and `limit`. `total` is exact on every page: `git rev-list --count`
 * with the same filters counts the matching commits.
 *
 * @param options - the repository root, the `limit` cap, the mounted tools and overrides
 * @returns the tool
 * @throws AgentoolError when the options are invalid
 * @example
 * const gitLog = createGitLogTool({ root: "/work/repo" });
 * await gitLog.run({ path: "src/parser.ts", limit: 5 }); // data.commits[0].short_hash === "a1b2c3d"
 */
export function createGitLogTool(options: GitLogToolOptions): GitLogTool {
  const parsed = parseOptions("createGitLogTool", logOptionsSchema, options);
  const settings = createSettings(parsed, GIT_LOG_TOOL_NAME);
  const { runner, mounted, name } = settings;
  const maxLimit = parsed.maxLimit ?? DEFAULT_MAX_LOG_LIMIT;
  const input = createLogInputSchema(maxLimit) as typeof gitLogInputSchema;
  const showTool = mounted.has("git_show") ? "git_show" : undefined;

  return defineTool({
    name,
    description: parsed.description ?? defaultDescription(mounted),
    input,
    aliases: GIT_LOG_ALIASES,
    annotations: { title: "Git log", readOnly: true, idempotent: true },
    tags: ["git", "git:read"],
    timeoutMs: settings.timeoutMs,
    execute: (request, context): Promise<ToolResult<GitLogToolData>> =>
      guard(async () => {
        const signal = context.signal;
        const limit = Math.min(request.limit ?? DEFAULT_LOG_LIMIT, maxLimit);
        const offset = request.offset ?? 1;
        const includeEmail = request.include_email ?? false;
        const filters: string[] = [];
        if (request.since !== undefined) {
          filters.push(`--since=${checkFilterText(request.since, "since", "'2024-05-01'")}`);
        }
        if (request.until !== undefined) {
          filters.push(`--until=${checkFilterText(request.until, "until", "'yesterday'")}`);
        }
        if (request.author !== undefined) {
          const author = checkFilterText(request.author, "author", "'Ada' or 'ada@example.com'");
          filters.push(`--author=${author}`, "--regexp-ignore-case", "--fixed-strings");
        }
        if (request.ref !== undefined) {
          filters.push(await resolveCommit(runner, request.ref, "ref", signal, mounted));
        }
        const path =
          request.path === undefined ? undefined : await confinePath(runner, request.path, "path");
        const pathspecs = ["--", ...(path === undefined ? [] : [path])];
        const args = [
          "log",
          "--no-color",
          "-z",
          `--max-count=${limit}`,
          `--format=%H${FIELD}%h${FIELD}%an${FIELD}${includeEmail ? "%ae" : ""}${FIELD}%aI${FIELD}%B`,
        ];
        if (offset > 1) args.push(`--skip=${offset - 1}`);
        // The exact total, the same on every page: the same walk, counted (no formatting, no
        // skip) — by a second git process running beside the log, not after it.
        const counting = runner.run(
          [
            "rev-list",
            "--count",
            ...filters,
            ...(request.ref === undefined ? ["HEAD"] : []),
            ...pathspecs,
          ],
          { signal },
        );
        // Awaited below; marked handled so a log that fails first leaves no unhandled rejection.
        counting.catch(() => undefined);
        const result = await runner.run([...args, ...filters, ...pathspecs], { signal });
        const echo = {
          ...(path === undefined ? {} : { path }),
          ...(request.ref === undefined ? {} : { ref: request.ref }),
          ...(request.since === undefined ? {} : { since: request.since }),
          ...(request.until === undefined ? {} : { until: request.until }),
          ...(request.author === undefined ? {} : { author: request.author }),
          include_email: includeEmail,
          call_arguments: givenCallArguments(request),
        };
        if (result.exitCode !== 0) {
          if (/does not have any commits yet|bad default revision 'HEAD'/.test(result.stderr)) {
            if (offset > 1) {
              refuseWith(offsetPastEnd({ tool: name, offset, total: 0, unit: "commits" }));
            }
            return ok({
              commits: [],
              offset,
              total: 0,
              truncated: false,
              ...echo,
              empty_reason: `the repository has no commits yet.${
                mounted.has("git_add") && mounted.has("git_commit")
                  ? " Stage files with git_add and create the first commit with git_commit."
                  : ""
              }`,
            });
          }
          failFromGit(result, "git log", mounted);
        }
        const commits: GitCommitSummary[] = [];
        for (const record of result.stdout.split("\0")) {
          if (record.length === 0) continue;
          const [hash = "", shortHash = "", author = "", email = "", date = "", ...message] =
            record.split(FIELD);
          const commit: GitCommitSummary = {
            hash,
            short_hash: shortHash,
            message: message.join(FIELD).trim(),
            author,
            date,
          };
          if (includeEmail) commit.author_email = email;
          commits.push(commit);
        }
        const counted = await counting;
        if (counted.exitCode !== 0) failFromGit(counted, "git rev-list", mounted);
        const total = Number(counted.stdout.trim());
        if (isOffsetPastEnd(offset, total)) {
          refuseWith(offsetPastEnd({ tool: name, offset, total, unit: "commits" }));
        }
        const end = offset - 1 + commits.length;
        const data: GitLogToolData = {
          commits,
          offset,
          total,
          truncated: end < total,
          ...echo,
        };
        if (end < total) data.next_offset = end + 1;
        if (commits.length === 0) {
          const filtered = [request.path, request.since, request.until, request.author].some(
            (value) => value !== undefined,
          );
          data.empty_reason = filtered
            ? "no commit matches these filters; loosen path, since, until or author."
            : "no commits are reachable from this revision.";
        }
        return ok(data);
      }),
    render: (data) =>
      formatGitLog(data, { toolName: name, ...(showTool === undefined ? {} : { showTool }) }),
  });
}
