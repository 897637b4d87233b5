// @agentool/tools-fs root in the browser: the read-write tools over the in-memory FileSystem —
// read_file, write_file, edit_file, grep_search, then read_file again to see every change.
import { createFsTools, createMemoryFileSystem } from "@agentool/tools-fs";
import { type BrowserToolCall, callTool, findTool } from "./call-tool.js";

/**
 * Works on a two-file memory workspace.
 *
 * @returns the calls: `read`, `write`, `edit`, `grep`, `reread`
 */
export default async function run(): Promise<Record<string, BrowserToolCall>> {
  const fileSystem = createMemoryFileSystem({
    "notes/pump.md": "# Pump\n\nCheck the presure valve weekly.\nTODO: order seals\n",
    "src/main.ts": 'export const greeting = "hello";\n',
  });
  const tools = createFsTools({ fileSystem, mode: "read-write" });
  const readFile = findTool(tools, "read_file");
  const read = await callTool(readFile, { path: "notes/pump.md" });
  const write = await callTool(findTool(tools, "write_file"), {
    path: "notes/seals.md",
    content: "# Seals\n\nTODO: compare suppliers\n",
  });
  const edit = await callTool(findTool(tools, "edit_file"), {
    path: "notes/pump.md",
    old_text: "presure",
    new_text: "pressure",
  });
  const grep = await callTool(findTool(tools, "grep_search"), { pattern: "TODO" });
  const reread = await callTool(readFile, { path: "notes/pump.md" });
  return { read, write, edit, grep, reread };
}
