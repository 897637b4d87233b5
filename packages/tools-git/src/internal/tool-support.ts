import {
  listWords,
  type MountedTools,
  mountedTools,
  mountedToolsOption,
  toolOverridesShape,
} from "@agentool/contract";
import { z } from "zod";
import { refuse } from "./git-failure.js";
import { createGitRunner, type GitCallResult, type GitRunner } from "./git-runner.js";
import { OWNERSHIP_HINT } from "./ownership.js";

/** Default cap on model-facing text of one call (diff, show), in UTF-8 bytes. */
export const DEFAULT_MAX_OUTPUT_BYTES = 50_000;
/** Default cap on listed entries (changes, files, branches). */
export const DEFAULT_MAX_ENTRIES = 500;
/** Default `timeoutMs` of every git tool. */
export const DEFAULT_GIT_TIMEOUT_MS = 30_000;

/** Options every git tool factory takes. */
export const gitToolOptionsShape = {
  ...toolOverridesShape,
  root: z.string().min(1).describe("The repository's top-level directory."),
  runHooks: z.boolean().optional().describe("Let the repository's hooks run. Default false."),
  timeoutMs: z.number().int().min(0).max(3_600_000).optional().describe("Per-call time limit."),
  maxOutputBytes: z
    .number()
    .int()
    .min(1_000)
    .max(10_000_000)
    .optional()
    .describe("Cap on model-facing text per call."),
  maxEntries: z.number().int().min(1).max(100_000).optional().describe("Cap on listed entries."),
  secretPaths: z
    .array(z.string().min(1))
    .readonly()
    .optional()
    .describe("Secret-path globs. Default: the contract's DEFAULT_SECRET_PATHS."),
  secretExceptions: z
    .array(z.string().min(1))
    .readonly()
    .optional()
    .describe("Globs excepted from secretPaths. Default: DEFAULT_SECRET_EXCEPTIONS."),
  mountedTools: mountedToolsOption,
};

/** What every factory knows after parsing its options. */
export interface GitToolSettings {
  runner: GitRunner;
  timeoutMs: number;
  maxOutputBytes: number;
  maxEntries: number;
  /** The tool's own name (its default or the host's override). */
  name: string;
  /** The tools mounted beside it (descriptions, hints and markers name only these). */
  mounted: MountedTools;
}

/**
 * Builds the runner and caps from parsed factory options.
 *
 * @param parsed - options parsed with {@link gitToolOptionsShape}
 * @returns the settings
 */
export function createSettings(
  parsed: {
    name?: string | undefined;
    mountedTools?: readonly string[] | undefined;
    root: string;
    runHooks?: boolean | undefined;
    timeoutMs?: number | undefined;
    maxOutputBytes?: number | undefined;
    maxEntries?: number | undefined;
    secretPaths?: readonly string[] | undefined;
    secretExceptions?: readonly string[] | undefined;
  },
  defaultName: string,
): GitToolSettings {
  const name = parsed.name ?? defaultName;
  return {
    name,
    mounted: mountedTools(parsed.mountedTools, name),
    runner: createGitRunner({
      root: parsed.root,
      runHooks: parsed.runHooks ?? false,
      ...(parsed.secretPaths === undefined ? {} : { secretPaths: parsed.secretPaths }),
      ...(parsed.secretExceptions === undefined
        ? {}
        : { secretExceptions: parsed.secretExceptions }),
    }),
    timeoutMs: parsed.timeoutMs ?? DEFAULT_GIT_TIMEOUT_MS,
    maxOutputBytes: parsed.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
    maxEntries: parsed.maxEntries ?? DEFAULT_MAX_ENTRIES,
  };
}

function firstLines(text: string, count: number): string {
  const lines = text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.length > 0 && !line.startsWith("hint:"));
  const joined = lines.slice(0, count).join(" ");
  return joined.length > 600 ? `${joined.slice(0, 600)}…` : joined;
}

/**
 * Throws the failure for a git command that exited non-zero, with git's own words and a hint
 * that names the next step.
 *
 * @param result - the failed call
 * @param action - what was attempted, e.g. `"git status"`
 * @param mounted - the tools a hint may name (default: none)
 */
export function failFromGit(
  result: GitCallResult,
  action: string,
  mounted: MountedTools = mountedTools(undefined),
): never {
  const detail = firstLines(result.stderr, 4) || `exit code ${result.exitCode}`;
  const lower = result.stderr.toLowerCase();
  // Outside a repository `git diff` falls back to --no-index and prints its usage instead.
  if (lower.includes("not a git repository") || lower.includes("usage: git diff --no-index")) {
    refuse("NOT_CONFIGURED", `${action} failed: the configured root is not a git repository.`, {
      hint: "Ask the user to point the git tools' root option at the top level of a repository.",
    });
  }
  if (
    lower.includes("index.lock") ||
    lower.includes("unable to create") ||
    lower.includes(".lock")
  ) {
    refuse("GIT_ERROR", `${action} failed: another git process holds the lock (${detail}).`, {
      hint: "Wait a moment and call again.",
      retryable: true,
    });
  }
  if (lower.includes("unmerged") || lower.includes("conflict")) {
    refuse("GIT_ERROR", `${action} failed: ${detail}`, {
      hint: `Resolve the conflicted files${mounted.when("git_status", " git_status lists")} (edit them${mounted.when("git_add", ", then git_add them")}) and call again.`,
    });
  }
  if (lower.includes("dubious ownership")) {
    refuse("PERMISSION_DENIED", `${action} failed: ${detail}`, {
      hint: OWNERSHIP_HINT,
    });
  }
  const finders = mounted.filter(["git_status", "git_log"]);
  refuse("GIT_ERROR", `${action} failed: ${detail}`, {
    hint: `Check the arguments${finders.length > 0 ? ` (${listWords(finders, "and")} show what exists)` : ""} and call again.`,
  });
}

/**
 * Tells whether a blob looks binary (a NUL in its first 8,000 bytes, as git decides).
 *
 * @param value - the bytes
 * @returns `true` when it contains one
 */
export function looksBinary(value: Buffer): boolean {
  return value.subarray(0, 8_000).includes(0);
}

/** Shared description of the `path` filter fields. */
export const pathFieldDescription = "Only this file or directory, relative to the repository root.";
