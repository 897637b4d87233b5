import {
  defineTool,
  fail,
  joinSentences,
  mountedTools,
  ok,
  parseOptions,
  type Tool,
} from "@agentool/contract";
import { z } from "zod";
import { type WorkspaceToolOptions, workspaceToolOptionsShape } from "./internal/tool-support.js";
import { gitPrivateError, isGitPrivatePath } from "./workspace.js";

/** The default name of the directory-creating tool. */
export const CREATE_DIRECTORY_TOOL_NAME = "create_directory";

/** Options of {@link createCreateDirectoryTool}. */
export type CreateDirectoryToolOptions = WorkspaceToolOptions;

const optionsSchema = z.object(workspaceToolOptionsShape);

/** The input schema of `create_directory`. */
export const createDirectoryInputSchema = z.object({
  path: z.string().describe("Directory to create, relative to the workspace root."),
});

/** The input of `create_directory`. */
export type CreateDirectoryInput = z.output<typeof createDirectoryInputSchema>;

/** What `create_directory` returns. */
export interface CreateDirectoryToolData {
  /** The directory, as a workspace path. */
  path: string;
  /** `true` when it was created, `false` when it already existed. */
  created: boolean;
}

/** The `create_directory` tool's type. */
export type CreateDirectoryTool = Tool<typeof createDirectoryInputSchema, CreateDirectoryToolData>;

/** Names from other toolsets accepted silently for `create_directory`'s `path`. */
export const CREATE_DIRECTORY_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  dir_path: "path",
  directory: "path",
});

function description(mounted: ReturnType<typeof mountedTools>): string {
  const creators = ["write_file", "move_file", "copy_file"].filter((name) => mounted.has(name));
  const list =
    creators.length <= 1
      ? creators.join("")
      : `${creators.slice(0, -1).join(", ")} or ${creators[creators.length - 1]}`;
  return joinSentences(
    [
      "Create a directory and missing parents (mkdir -p); an existing one is fine.",
      creators.length > 0
        ? `You do not need it before ${list}: ${creators.length === 1 ? "it creates" : "they create"} parents ${creators.length === 1 ? "itself" : "themselves"}.`
        : undefined,
      "A file at the path fails FILE_ALREADY_EXISTS.",
    ],
    "\n",
  );
}

/**
 * Creates the `create_directory` tool: `mkdir -p` confined to the workspace (symlinked parents
 * are followed on the real path and refused when they lead outside), secret paths refused.
 *
 * @param options - the workspace and name/description overrides
 * @returns the tool
 * @throws AgentoolError when the options are invalid
 * @example
 * const createDirectory = createCreateDirectoryTool({ workspace });
 * await createDirectory.run({ path: "docs/guides" }); // data: { path: "docs/guides", created: true }
 */
export function createCreateDirectoryTool(
  options: CreateDirectoryToolOptions,
): CreateDirectoryTool {
  const parsed = parseOptions("createCreateDirectoryTool", optionsSchema, options);
  const workspace = parsed.workspace;
  const fileSystem = workspace.fileSystem;
  return defineTool({
    name: parsed.name ?? CREATE_DIRECTORY_TOOL_NAME,
    description: parsed.description ?? description(mountedTools(parsed.mountedTools)),
    input: createDirectoryInputSchema,
    aliases: CREATE_DIRECTORY_ALIASES,
    annotations: { title: "Create directory", idempotent: true, destructive: false },
    tags: ["fs:write"],
    execute: async (input) => {
      const resolved = await workspace.resolve(input.path);
      if (isGitPrivatePath(resolved.path) || isGitPrivatePath(resolved.real))
        throw gitPrivateError(resolved.display);
      return workspace.withLock(resolved.real, async () => {
        const existing = await fileSystem.stat(resolved.real);
        if (existing?.type === "directory") {
          return ok<CreateDirectoryToolData>({ path: resolved.display, created: false });
        }
        if (existing !== undefined) {
          return fail(
            "FILE_ALREADY_EXISTS",
            `${resolved.display} already exists and is a file, not a directory.`,
            { hint: "Choose another path, or delete or move the file first." },
          );
        }
        await fileSystem.createDirectory(resolved.real);
        return ok<CreateDirectoryToolData>({ path: resolved.display, created: true });
      });
    },
    render: (data) =>
      data.created
        ? `Created directory ${data.path}.`
        : `Directory ${data.path} already exists; nothing to do.`,
  });
}
