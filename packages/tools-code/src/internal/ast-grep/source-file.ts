import type { Workspace } from "@agentool/tools-fs";

/** Why a file was not searched. */
export type SkipReason = "too_large" | "not_text" | "unreadable";

/** A file's text, or why it has none. */
export type SourceText = { text: string } | { skip: SkipReason };

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * Reads one source file through the workspace's seam (confined: a path whose real path leaves
 * the root fails, and is skipped): files over `maxBytes` are skipped unread, a file that is not
 * UTF-8 text (a NUL byte, invalid UTF-8, a UTF-16 BOM) is skipped. A UTF-8 BOM is dropped.
 *
 * @param workspace - the workspace
 * @param path - a workspace path from the file lister, or resolved from the model's `path`
 * @param maxBytes - the size cap
 * @returns the text, or the reason it was skipped
 */
export async function readSourceText(
  workspace: Workspace,
  path: string,
  maxBytes: number,
): Promise<SourceText> {
  try {
    if (workspace.isSecret(path)) return { skip: "unreadable" };
    const stat = await workspace.fileSystem.stat(path);
    if (stat === undefined || stat.type !== "file") return { skip: "unreadable" };
    if (stat.size > maxBytes) return { skip: "too_large" };
    const bytes = await workspace.fileSystem.readFile(path);
    if (bytes.length > maxBytes) return { skip: "too_large" };
    if (bytes.includes(0)) return { skip: "not_text" };
    // `fatal` refuses invalid UTF-8; the decoder drops a UTF-8 BOM (ignoreBOM: false).
    return { text: decoder.decode(bytes) };
  } catch (error) {
    if (error instanceof TypeError) return { skip: "not_text" };
    return { skip: "unreadable" };
  }
}
