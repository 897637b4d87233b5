// The recorded Figma files and their local server, from @agentool/tools-design/testing (the
// recordings ship with the package, written from its typed fixtures), plus what the design
// bench needs of a file: its top-level frames.
import {
  RECORDED_FIGMA_FILES,
  RECORDED_FIGMA_TOKEN,
  readRecordedFigmaFile,
  startRecordedFigmaServer as startServer,
} from "@agentool/tools-design/testing";

/** The token the server accepts (a test value, never a real one). */
export const RECORDED_TOKEN = RECORDED_FIGMA_TOKEN;

/** Every recorded file: `{ key, file, … }`, in the order of RECORDED_FIGMA_FILES. */
export function loadRecordedFiles() {
  return Object.values(RECORDED_FIGMA_FILES).map((entry) => readRecordedFigmaFile(entry.recording));
}

/**
 * The top-level frames of a recorded file, page by page: `[{ page, id, name, type }]`.
 *
 * @param file - a GET /v1/files/:key answer
 */
export function topLevelFrames(file) {
  return file.document.children.flatMap((page) =>
    (page.children ?? []).map((node) => ({
      page: page.name,
      id: node.id,
      name: node.name,
      type: node.type,
    })),
  );
}

/**
 * Starts the recorded server on 127.0.0.1 (the package's: every route the tools call, the token
 * required).
 *
 * @returns `{ origin, requests, close }`
 */
export async function startRecordedFigmaServer() {
  return startServer({ token: RECORDED_TOKEN });
}
