import { z } from "zod";
import type { ApproveFunction, RequireApprovalFunction } from "../approval.js";

/** The `approve` option: a function, checked only for being callable. */
export const approveOptionSchema = z
  .custom<ApproveFunction>((value) => typeof value === "function", {
    message: "expected a function (call) => boolean | Promise<boolean>",
  })
  .optional()
  .describe("Gate run before every call of a tool that needs approval.");

/** The `requireApproval` option: a predicate over a tool's name, annotations and tags. */
export const requireApprovalOptionSchema = z
  .custom<RequireApprovalFunction>((value) => typeof value === "function", {
    message: "expected a function ({ name, annotations, tags }) => boolean",
  })
  .optional()
  .describe("Which tools need approval (default: those annotated destructive).");

/** The `allowDestructive` option: the host's decision to run destructive tools without a gate. */
export const allowDestructiveOptionSchema = z
  .boolean()
  .optional()
  .describe(
    "Run tools annotated destructive without an approve gate (default false: without approve they are refused with BLOCKED).",
  );

/** The `metadata` option: a plain record passed to tools as `context.metadata`. */
export const metadataOptionSchema = z
  .record(z.string(), z.unknown())
  .optional()
  .describe("Host values passed to every tool as context.metadata.");

/** The options every dispatcher accepts. */
export const dispatcherOptionsSchema = z.object({
  approve: approveOptionSchema,
  requireApproval: requireApprovalOptionSchema,
  allowDestructive: allowDestructiveOptionSchema,
  metadata: metadataOptionSchema,
});
