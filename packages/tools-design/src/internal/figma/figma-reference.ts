import { ToolFailureError } from "@agentool/contract";

/**
 * Figma file keys, URLs and node ids as a model writes them.
 *
 * @internal
 */

/** A file and, optionally, one node of it. */
export interface FigmaReference {
  /** The file key (a branch's key for a branch URL). */
  file_key: string;
  /** The node id, `1:23`, when given. */
  node_id?: string;
}

const KEY_PATTERN = /^[A-Za-z0-9]{10,64}$/;
const NODE_PATTERN = /^(?:I?-?\d+[:-]\d+)(?:;-?\d+[:-]\d+)*$/;

/**
 * Writes a node id as the API wants it: `1-23` (URL form) → `1:23`.
 *
 * @param nodeId - the id as given
 * @returns the API form
 * @throws ToolFailureError `INVALID_INPUT` for something that is not a node id
 */
export function normalizeNodeId(nodeId: string): string {
  const decoded = decodeURIComponent(nodeId.trim());
  if (!NODE_PATTERN.test(decoded)) {
    throw new ToolFailureError(
      "INVALID_INPUT",
      `"${nodeId.slice(0, 80)}" is not a Figma node id.`,
      {
        hint: "A node id is two numbers, 1:23 (or 1-23 as in a URL's node-id=1-23).",
      },
    );
  }
  return decoded.replace(/(\d)-(\d)/g, "$1:$2");
}

/**
 * Reads a file key or a Figma URL (`figma.com/file|design|proto|board/<key>/…?node-id=1-2`,
 * a branch's `/branch/<key>/`) into a file key and node id.
 *
 * @param input - `file_key`, `url` and `node_id` as the model sent them
 * @returns the reference
 * @throws ToolFailureError `INVALID_INPUT` when neither names a file
 */
export function readFigmaReference(input: {
  file_key?: string;
  url?: string;
  node_id?: string;
}): FigmaReference {
  let fileKey = input.file_key?.trim();
  let nodeId = input.node_id;
  if (input.url !== undefined) {
    let url: URL;
    try {
      url = new URL(input.url.trim());
    } catch {
      throw new ToolFailureError("INVALID_INPUT", "url is not a URL.", {
        hint: "Pass the Figma link as copied (https://www.figma.com/design/<key>/…), or the key as file_key.",
      });
    }
    const host = url.hostname.toLowerCase();
    if (host !== "figma.com" && !host.endsWith(".figma.com")) {
      throw new ToolFailureError("INVALID_INPUT", `${url.hostname} is not Figma.`, {
        hint: "Pass a figma.com link, or the file key as file_key.",
      });
    }
    const segments = url.pathname.split("/").filter(Boolean);
    const kind = segments.findIndex((segment) =>
      ["file", "design", "proto", "board", "slides"].includes(segment),
    );
    const branch = segments.indexOf("branch");
    const fromUrl = branch >= 0 ? segments[branch + 1] : kind >= 0 ? segments[kind + 1] : undefined;
    if (fromUrl === undefined) {
      throw new ToolFailureError("INVALID_INPUT", "The URL names no Figma file.", {
        hint: "Use a link to a file (…/design/<key>/…) rather than to a project or team.",
      });
    }
    fileKey = fromUrl;
    nodeId ??= url.searchParams.get("node-id") ?? undefined;
  }
  if (fileKey === undefined || fileKey === "") {
    throw new ToolFailureError("INVALID_INPUT", "Give file_key or url.", {
      hint: "The file key is the part after /design/ (or /file/) in the Figma link; or pass the whole link as url.",
    });
  }
  if (!KEY_PATTERN.test(fileKey)) {
    throw new ToolFailureError(
      "INVALID_INPUT",
      `"${fileKey.slice(0, 80)}" is not a Figma file key.`,
      {
        hint: "The key is the 22-character part after /design/ in the link, letters and digits only.",
      },
    );
  }
  return {
    file_key: fileKey,
    ...(nodeId === undefined ? {} : { node_id: normalizeNodeId(nodeId) }),
  };
}
