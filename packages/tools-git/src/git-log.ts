import {
  defineTool,
  ok,
  parseOptions,
  type Tool,
  type ToolResult,
  truncateText,
} from "@agentool/contract";
import { z } from "zod";
import type { GitToolOptions } from "./git-status.js";
import { checkFilterText } from "./internal/filter-text.js";
import { guard } from "./internal/git-failure.js";
import { confinePath } from "./internal/paths.js";
import { resolveCommit } from "./internal/revisions.js";
import { createSettings, failFromGit, gitToolOptionsShape } from "./internal/tool-support.js";

/** The default name of the log tool. */
export const GIT_LOG_TOOL_NAME = "git_log";

/** Commits returned when the model gives no limit. */
export const DEFAULT_LOG_LIMIT = 10;

/** Default cap on `limit`. */
export const DEFAULT_MAX_LOG_LIMIT = 100;

/** Longest message kept per commit, in characters. */
const MAX_MESSAGE_CHARACTERS = 4_000;

/** One commit in a log. */
export interface GitCommitSummary {
  /** The full hash. */
  hash: string;
  /** The abbreviated hash. */
  short_hash: string;
  /** The full message (trimmed; very long messages are cut with a marker). */
  message: string;
  /** The author's name. */
  author: string;
  /** The author's email. */
  author_email: string;
  /** The author date, ISO 8601. */
  date: string;
}

/** What `git_log` returns. */
export interface GitLogToolData {
  /** The commits, newest first. */
  commits: GitCommitSummary[];
  /** Whether more commits match after these. */
  has_more: boolean;
  /** The `offset` that shows the next page, when there is one. */
  next_offset?: number;
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
    path: z
      .string()
      .optional()
      .describe("Optional: only commits that touched this file or directory."),
    limit: z
      .number()
      .int()
      .min(1)
      .max(maxLimit)
      .optional()
      .describe(`How many commits to return (1 to ${maxLimit}). Default ${DEFAULT_LOG_LIMIT}.`),
    offset: z
      .number()
      .int()
      .min(0)
      .max(1_000_000)
      .optional()
      .describe("Skip this many matching commits first (for paging). Default 0."),
    ref: z
      .string()
      .optional()
      .describe("Optional: start from this branch, tag or commit instead of HEAD."),
    since: z
      .string()
      .optional()
      .describe("Optional: only commits after this date, e.g. '2024-05-01' or '2 weeks ago'."),
    until: z
      .string()
      .optional()
      .describe("Optional: only commits before this date, e.g. '2024-06-01' or 'yesterday'."),
    author: z
      .string()
      .optional()
      .describe("Optional: only commits whose author name or email contains this text (any case)."),
  });
}

/** The log tool's input schema (with the default limit cap). */
export const gitLogInputSchema = createLogInputSchema(DEFAULT_MAX_LOG_LIMIT);

/** The log tool's type. */
export type GitLogTool = Tool<typeof gitLogInputSchema, GitLogToolData>;

const DEFAULT_DESCRIPTION = [
  "List commits, newest first: hash, short hash, author, ISO 8601 date and message.",
  "Use it to see recent history, find when a file changed (path), or find a commit to pass to",
  "git_show or git_diff ref. Filter with since/until ('2 weeks ago', '2024-05-01') and author",
  "(text in the name or email). Default 10 commits; page with offset when has_more is true.",
  "Read-only.",
].join(" ");

const logOptionsSchema = z.object({
  ...gitToolOptionsShape,
  maxLimit: z.number().int().min(1).max(10_000).optional(),
});

const FIELD = "\x1f";

/**
 * Renders a log for the model: one block per commit, subject on the first line.
 *
 * @param data - the log tool's data
 * @returns model-facing text
 * @example
 * formatGitLog(result.data); // "a1b2c3d 2024-05-01T10:00:00+02:00 Ada — Fix the parser\n…"
 */
export function formatGitLog(data: GitLogToolData): string {
  if (data.commits.length === 0) return `No commits: ${data.empty_reason ?? "none matched."}`;
  const blocks = data.commits.map((commit) => {
    const [subject = "", ...body] = commit.message.split("\n");
    const rest = body.join("\n").trim();
    const head = `${commit.short_hash} ${commit.date} ${commit.author} <${commit.author_email}> — ${subject}`;
    return rest.length === 0 ? head : `${head}\n${rest.replace(/^/gm, "    ")}`;
  });
  if (data.has_more) {
    blocks.push(`More commits match — call git_log again with offset=${data.next_offset}.`);
  }
  return blocks.join("\n");
}

/**
 * Creates the `git_log` tool: commit history with path, ref, date and author filters, paged
 * with `limit`/`offset`.
 *
 * @param options - the repository root, the `limit` cap and overrides
 * @returns the tool
 * @throws AgentoolError when the options are invalid
 * @example
 * const gitLog = createGitLogTool({ root: "/work/repo" });
 * await gitLog.run({ path: "src/parser.ts", limit: 5 }); // data.commits[0].short_hash === "a1b2c3d"
 */
export function createGitLogTool(options: GitLogToolOptions): GitLogTool {
  const parsed = parseOptions("createGitLogTool", logOptionsSchema, options);
  const settings = createSettings(parsed);
  const { runner } = settings;
  const maxLimit = parsed.maxLimit ?? DEFAULT_MAX_LOG_LIMIT;
  const input = createLogInputSchema(maxLimit) as typeof gitLogInputSchema;

  return defineTool({
    name: parsed.name ?? GIT_LOG_TOOL_NAME,
    description: parsed.description ?? DEFAULT_DESCRIPTION,
    input,
    annotations: { title: "Git log", readOnly: true, idempotent: true },
    tags: ["git", "git:read"],
    timeoutMs: settings.timeoutMs,
    execute: (request, context): Promise<ToolResult<GitLogToolData>> =>
      guard(async () => {
        const signal = context.signal;
        const limit = Math.min(request.limit ?? DEFAULT_LOG_LIMIT, maxLimit);
        const offset = request.offset ?? 0;
        const args = [
          "log",
          "--no-color",
          "-z",
          `--max-count=${limit + 1}`,
          `--format=%H${FIELD}%h${FIELD}%an${FIELD}%ae${FIELD}%aI${FIELD}%B`,
        ];
        if (offset > 0) args.push(`--skip=${offset}`);
        if (request.since !== undefined) {
          args.push(`--since=${checkFilterText(request.since, "since", "'2024-05-01'")}`);
        }
        if (request.until !== undefined) {
          args.push(`--until=${checkFilterText(request.until, "until", "'yesterday'")}`);
        }
        if (request.author !== undefined) {
          const author = checkFilterText(request.author, "author", "'Ada' or 'ada@example.com'");
          args.push(`--author=${author}`, "--regexp-ignore-case", "--fixed-strings");
        }
        if (request.ref !== undefined) {
          args.push(await resolveCommit(runner, request.ref, "ref", signal));
        }
        args.push("--");
        if (request.path !== undefined) args.push(await confinePath(runner, request.path, "path"));
        const result = await runner.run(args, { signal });
        if (result.exitCode !== 0) {
          if (/does not have any commits yet|bad default revision 'HEAD'/.test(result.stderr)) {
            return ok({
              commits: [],
              has_more: false,
              empty_reason:
                "the repository has no commits yet. Stage files with git_add and create the first commit with git_commit.",
            });
          }
          failFromGit(result, "git log");
        }
        const commits: GitCommitSummary[] = [];
        for (const record of result.stdout.split("\0")) {
          if (record.length === 0) continue;
          const [hash = "", shortHash = "", author = "", email = "", date = "", ...message] =
            record.split(FIELD);
          const text = truncateText(message.join(FIELD).trim(), {
            maxCharacters: MAX_MESSAGE_CHARACTERS,
            next: `call git_show with revision=${shortHash} for the whole message`,
          }).text;
          commits.push({
            hash,
            short_hash: shortHash,
            message: text,
            author,
            author_email: email,
            date,
          });
        }
        const hasMore = commits.length > limit;
        const data: GitLogToolData = { commits: commits.slice(0, limit), has_more: hasMore };
        if (hasMore) data.next_offset = offset + limit;
        if (data.commits.length === 0) {
          const filtered = [request.path, request.since, request.until, request.author].some(
            (value) => value !== undefined,
          );
          data.empty_reason =
            offset > 0
              ? `no commits after offset ${offset}; call again with a smaller offset.`
              : filtered
                ? "no commit matches these filters; loosen path, since, until or author."
                : "no commits are reachable from this revision.";
        }
        return ok(data);
      }),
    render: formatGitLog,
  });
}
