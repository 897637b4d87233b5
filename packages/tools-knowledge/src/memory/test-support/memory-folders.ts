import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { createMemoryListTool } from "../memory-list.js";
import { createMemoryReadTool } from "../memory-read.js";
import { createMemorySearchTool } from "../memory-search.js";
import { createMemoryWriteTool } from "../memory-write.js";
import { createFileMemoryBackend } from "../node/file-memory-backend.js";

/** The memory tools over a fresh file store on `directory` (a restart's view). */
export function toolsOver(directory: string) {
  const backend = createFileMemoryBackend({ directory });
  const common = { backend, namespace: ["shared"] };
  return {
    write: createMemoryWriteTool(common),
    read: createMemoryReadTool(common),
    search: createMemorySearchTool(common),
    list: createMemoryListTool(common),
  };
}

/** Every file under `directory`, recursively. */
export function memoryFiles(directory: string): string[] {
  const found: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(folder, entry.name));
      else found.push(join(folder, entry.name));
    }
  };
  if (existsSync(directory)) walk(directory);
  return found;
}
