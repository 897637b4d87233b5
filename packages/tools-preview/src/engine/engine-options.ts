import { type ToolOverrides, toolOverridesShape } from "@agentool/contract";
import { z } from "zod";
import {
  DEFAULT_MAX_ARTIFACT_BYTES,
  DEFAULT_MAX_PREVIEW_SESSIONS,
  DEFAULT_PREVIEW_IDLE_MS,
  DEFAULT_PREVIEW_TIMEOUT_MS,
  PREVIEW_DEADLINE_MARGIN_MS,
  PREVIEW_TOOL_NAME,
} from "./limits.js";

/** Reads an artifact: a host `read(path, signal)`. */
export type PreviewReadFunction = (
  path: string,
  signal: AbortSignal,
) => Promise<string | Uint8Array> | string | Uint8Array;

/** The part of the fs family's `FileSystem` seam the preview uses. */
export interface PreviewFileSource {
  /** The whole file. */
  readFile(path: string): Promise<Uint8Array>;
  /** The root as the model sees it (the fs seam has one); absolute paths under it are accepted. */
  readonly displayRoot?: string;
}

/** Options of the op engine, shared by both backends' factories. */
export interface PreviewEngineOptions extends ToolOverrides {
  /** Reads an artifact; give this or `fileSystem`. */
  read?: PreviewReadFunction;
  /** The fs family's `FileSystem` seam (or anything with `readFile`); give this or `read`. */
  fileSystem?: PreviewFileSource;
  /**
   * The workspace root as the model sees it (e.g. `/home/me/project`): an absolute path under it
   * opens the file it names, any other absolute path is refused — the rule of the fs and git
   * families. Default: `fileSystem.displayRoot`; `root`, resolved, on Node.
   */
  displayRoot?: string;
  /** Time limit of one call. Default {@link DEFAULT_PREVIEW_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** A session closes after this long without a call. Default {@link DEFAULT_PREVIEW_IDLE_MS}. */
  idleMs?: number;
  /** Most sessions open at once (the oldest is closed first). Default {@link DEFAULT_MAX_PREVIEW_SESSIONS}. */
  maxSessions?: number;
  /** Viewport size in CSS pixels. Default 800 × 600. */
  viewport?: { width: number; height: number };
  /** Largest artifact opened, in bytes. Default {@link DEFAULT_MAX_ARTIFACT_BYTES}. */
  maxArtifactBytes?: number;
}

/** The zod schema of the engine options (strict; backends extend it). */
export const previewEngineOptionsShape = {
  ...toolOverridesShape,
  read: z
    .custom<PreviewReadFunction>((value) => typeof value === "function", {
      message: "read must be a function (path, signal) => Promise<string | Uint8Array>",
    })
    .optional(),
  fileSystem: z
    .custom<PreviewFileSource>(
      (value) =>
        typeof value === "object" &&
        value !== null &&
        typeof (value as { readFile?: unknown }).readFile === "function",
      { message: "fileSystem must have readFile(path) (the fs family's FileSystem seam)" },
    )
    .optional(),
  displayRoot: z
    .string()
    .startsWith("/", { error: "displayRoot must be an absolute path, e.g. /home/me/project" })
    .optional(),
  timeoutMs: z.number().int().min(2_000).max(600_000).optional(),
  idleMs: z.number().int().min(100).max(86_400_000).optional(),
  maxSessions: z.number().int().min(1).max(64).optional(),
  viewport: z
    .object({
      width: z.number().int().min(100).max(4_000),
      height: z.number().int().min(100).max(4_000),
    })
    .strict()
    .optional(),
  maxArtifactBytes: z
    .number()
    .int()
    .min(1)
    .max(100 * 1024 * 1024)
    .optional(),
};

/** The engine's options with every default filled in. */
export interface EngineSettings {
  /** The tool's name, as messages and hints say it. */
  name: string;
  /** The tool's time limit of one call, ms. */
  timeoutMs: number;
  /** The internal deadline of one call (the time limit less the margin to report back), ms. */
  deadlineMs: number;
  /** Idle time after which a session closes, ms. */
  idleMs: number;
  /** Most sessions open at once. */
  maxSessions: number;
  /** Viewport size in CSS pixels. */
  viewport: { width: number; height: number };
  /** Largest artifact opened, in bytes. */
  maxArtifactBytes: number;
  /** The absolute forms of the workspace root an absolute path may start with. */
  roots: readonly string[];
}

/**
 * Fills in the defaults of the engine options.
 *
 * @param options - the validated options
 * @returns the settings the engine runs with
 */
export function resolveEngineSettings(options: PreviewEngineOptions): EngineSettings {
  const timeoutMs = options.timeoutMs ?? DEFAULT_PREVIEW_TIMEOUT_MS;
  return {
    name: options.name ?? PREVIEW_TOOL_NAME,
    timeoutMs,
    deadlineMs: timeoutMs - PREVIEW_DEADLINE_MARGIN_MS,
    idleMs: options.idleMs ?? DEFAULT_PREVIEW_IDLE_MS,
    maxSessions: options.maxSessions ?? DEFAULT_MAX_PREVIEW_SESSIONS,
    viewport: options.viewport ?? { width: 800, height: 600 },
    maxArtifactBytes: options.maxArtifactBytes ?? DEFAULT_MAX_ARTIFACT_BYTES,
    roots: [options.displayRoot ?? options.fileSystem?.displayRoot].filter(
      (root): root is string => typeof root === "string" && root.startsWith("/"),
    ),
  };
}
