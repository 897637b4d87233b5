import { join } from "node:path";
import type { PageSaver } from "@agentool/tools-web";
import { createDirectorySaver } from "@agentool/tools-web/node";
import { isInside, realPathOfNearest } from "./internal/knowledge-folder-paths.js";

// The folder helpers live in internal/knowledge-folder-paths.ts, which loads no tool family (the
// command line and the lazy server import them); the saver needs tools-web, so it stays here.
export {
  type KnowledgeCacheEnvironment,
  type KnowledgeFolder,
  knowledgeCacheDirectory,
  normalizeKnowledgeDir,
  resolveKnowledgeFolder,
  rootRelativeSource,
  WEB_PAGES_FOLDER,
} from "./internal/knowledge-folder-paths.js";

/**
 * The saver of `web_fetch` when it saves into the knowledge folder: each page becomes
 * `<web pages folder>/<host-path>.md` (Markdown with front matter, written atomically) and the
 * result names it root-relative (`web-pages/example.com-docs.md`), the path `read_file` and
 * `search_knowledge` use. Before each save the folder's real path is checked to be inside the
 * root (a symlink planted since start-up cannot redirect the write).
 *
 * @param root - the real path of the confinement root
 * @param folder - the web pages folder, relative to the root (`/`-separated)
 * @returns the saver
 * @example
 * createWebFetchTool({ save: createWebPagesSaver("/work/project", "web-pages") });
 */
export function createWebPagesSaver(root: string, folder: string): PageSaver {
  const directory = join(root, ...folder.split("/"));
  const save = createDirectorySaver(directory);
  return async (document, context) => {
    const real = realPathOfNearest(directory);
    if (!isInside(real, root)) {
      throw new Error(
        `${folder} resolves to ${real}, outside the root; remove that link to save pages again.`,
      );
    }
    return `${folder}/${await save(document, context)}`;
  };
}
