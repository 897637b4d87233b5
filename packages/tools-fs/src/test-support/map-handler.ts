import type { AnyTool, RunOptions, ToolResult } from "@agentool/contract";
import { createFsTools } from "../create-fs-tools.js";
import type { FileSystem } from "../file-system.js";
import type { FileSystemHandler } from "../handler-file-system.js";

/** A host's storage for the handler seam's tests: a `Map` from path to content, and a call log. */
export interface MapStorage {
  /** What the host holds: workspace path → text or bytes. */
  files: Map<string, string | Uint8Array>;
  /** Every handler call, in order: `"read a.md"`, `"write a.md"`, `"list "`, `"remove a.md"`. */
  calls: string[];
  /** The handler over {@link MapStorage.files}; `list` and `remove` only when asked for. */
  handler: FileSystemHandler;
}

/**
 * A `Map`-backed handler, the way a host writes one: `list` answers every key under the
 * directory as it is (a flat store; the seam takes first segments as folders).
 *
 * @param initial - the files the host holds already
 * @param options - whether to give `list` and `remove`
 * @returns the storage and its handler
 */
export function mapStorage(
  initial: Record<string, string | Uint8Array> = {},
  options: { list?: boolean; remove?: boolean } = {},
): MapStorage {
  const files = new Map(Object.entries(initial));
  const calls: string[] = [];
  const handler: FileSystemHandler = {
    async read(path) {
      calls.push(`read ${path}`);
      return files.get(path);
    },
    async write(path, content) {
      calls.push(`write ${path}`);
      files.set(path, content);
    },
  };
  if (options.list === true) {
    handler.list = async (directory) => {
      calls.push(`list ${directory}`);
      const prefix = directory.length === 0 ? "" : `${directory}/`;
      return [...files.keys()]
        .filter((key) => key.startsWith(prefix))
        .map((key) => key.slice(prefix.length));
    };
  }
  if (options.remove === true) {
    handler.remove = async (path) => {
      calls.push(`remove ${path}`);
      if (!files.delete(path)) {
        throw Object.assign(new Error(`no such file: ${path}`), { code: "ENOENT" });
      }
    };
  }
  return { files, calls, handler };
}

/** The read-write fs tools over a seam, by name, each run returning its envelope. */
export type ToolsByName = Record<
  string,
  (input: unknown, options?: RunOptions) => Promise<ToolResult<unknown>>
>;

/**
 * Mounts the read-write fs tools over a seam.
 *
 * @param fileSystem - the seam
 * @returns a runner per tool name
 */
export function fsToolsOver(fileSystem: FileSystem): ToolsByName {
  const tools: AnyTool[] = createFsTools({ fileSystem, mode: "read-write" });
  return Object.fromEntries(
    tools.map(
      (tool) =>
        [tool.name, (input: unknown, options?: RunOptions) => tool.run(input, options)] as const,
    ),
  );
}
