// edit_file on a 10 MB file versus a bare readFile + replace + writeFile (target ratio ≤ 1.5).
// edit_file also hashes the old and new content, writes atomically (temporary file, fsync,
// rename) and builds a diff; a second baseline adds the same atomic write for reference.
//
// Run: npx tsc -p tsconfig.build.json && node bench/edit-file-bench.mjs [iterations]
import { mkdtemp, open, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEditFileTool } from "../dist/edit-file.js";
import { createNodeFileSystem } from "../dist/node/node-file-system.js";
import { createWorkspace } from "../dist/workspace.js";

const iterations = Number(process.argv[2] ?? 20);
const root = await mkdtemp(join(tmpdir(), "agentool-edit-bench-"));
const median = (values) => {
  const sorted = [...values].sort((first, second) => first - second);
  return sorted[Math.floor(sorted.length / 2)];
};

try {
  const lines = [];
  let bytes = 0;
  for (let index = 0; bytes < 10_000_000; index += 1) {
    const line = `export const value${index} = computeSomething(${index}, "payload ${index}"); // comment\n`;
    lines.push(line);
    bytes += line.length;
  }
  const target = Math.floor(lines.length / 2);
  lines[target] = "const marker = 'A';\n";
  const content = lines.join("");
  const toolPath = join(root, "tool.ts");
  const barePath = join(root, "bare.ts");
  const atomicPath = join(root, "atomic.ts");
  await writeFile(toolPath, content);
  await writeFile(barePath, content);
  await writeFile(atomicPath, content);
  console.log(
    `file: ${(content.length / 1_000_000).toFixed(1)} MB, ${lines.length.toLocaleString("en-US")} lines, edit at line ${target + 1}`,
  );

  const editFile = createEditFileTool({
    workspace: createWorkspace({ fileSystem: createNodeFileSystem({ root }) }),
  });
  const swap = (iteration) => (iteration % 2 === 0 ? ["'A'", "'B'"] : ["'B'", "'A'"]);
  const timings = { tool: [], bare: [], atomic: [] };
  for (let iteration = 0; iteration < iterations + 2; iteration += 1) {
    const [from, to] = swap(iteration);
    let started = performance.now();
    const result = await editFile.run({
      path: "tool.ts",
      old_text: `const marker = ${from};`,
      new_text: `const marker = ${to};`,
    });
    const toolMs = performance.now() - started;
    if (!result.success) throw new Error(result.error.message);

    started = performance.now();
    const text = await readFile(barePath, "utf8");
    await writeFile(barePath, text.replace(`const marker = ${from};`, `const marker = ${to};`));
    const bareMs = performance.now() - started;

    started = performance.now();
    const atomicText = await readFile(atomicPath, "utf8");
    const temporary = `${atomicPath}.tmp`;
    const handle = await open(temporary, "w");
    await handle.writeFile(atomicText.replace(`const marker = ${from};`, `const marker = ${to};`));
    await handle.sync();
    await handle.close();
    await rename(temporary, atomicPath);
    const atomicMs = performance.now() - started;
    if (iteration >= 2) {
      timings.tool.push(toolMs);
      timings.bare.push(bareMs);
      timings.atomic.push(atomicMs);
    }
  }
  const tool = median(timings.tool);
  const bare = median(timings.bare);
  const atomic = median(timings.atomic);
  console.table([
    { case: "edit_file (hash, atomic write + fsync, diff)", "median ms": tool.toFixed(1) },
    { case: "bare readFile + replace + writeFile", "median ms": bare.toFixed(1) },
    { case: "readFile + replace + temp/fsync/rename (reference)", "median ms": atomic.toFixed(1) },
  ]);
  const ratio = tool / bare;
  console.log(
    `ratio edit_file / bare = ${ratio.toFixed(2)} (target ≤ 1.5): ${ratio <= 1.5 ? "PASS" : "FAIL"}`,
  );
  console.log(`ratio edit_file / atomic reference = ${(tool / atomic).toFixed(2)}`);
} finally {
  await rm(root, { recursive: true, force: true });
}
