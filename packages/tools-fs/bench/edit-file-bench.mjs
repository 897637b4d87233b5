// edit_file on a 10 MB file versus a bare readFile + replace + writeFile (target ratio ≤ 1.5).
// edit_file also hashes the old and new content, writes atomically (temporary file, fsync,
// rename) and builds a diff; a second baseline adds the same atomic write for reference.
// Each ratio interleaves edit_file and its baseline call by call (bench/lib/discipline.mjs):
// rounds of [iterations] pairs (default 20) until the ratio's spread is under 10%, refused while
// another process uses over 20% of a core (BENCH_ALLOW_LOAD=1 keeps such rounds, marked LOADED).
//
// Run: npx tsc -p tsconfig.build.json && node bench/edit-file-bench.mjs [iterations]
import { mkdtemp, open, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { benchHeader, formatRatio, measureRatio } from "../../../bench/lib/discipline.mjs";
import { createEditFileTool } from "../dist/edit-file.js";
import { createNodeFileSystem } from "../dist/node/node-file-system.js";
import { createWorkspace } from "../dist/workspace.js";

const iterations = Number(process.argv[2] ?? 20);
const root = await mkdtemp(join(tmpdir(), "agentool-edit-bench-"));

console.log(`${benchHeader("edit_file on a 10 MB file beside a bare rewrite")}\n`);
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
  // Each side toggles its own file between 'A' and 'B', one edit per call.
  const counts = { tool: 0, bare: 0, atomic: 0 };
  const tool = async () => {
    const [from, to] = swap(counts.tool++);
    const result = await editFile.run({
      path: "tool.ts",
      old_text: `const marker = ${from};`,
      new_text: `const marker = ${to};`,
    });
    if (!result.success) throw new Error(result.error.message);
  };
  const bare = async () => {
    const [from, to] = swap(counts.bare++);
    const text = await readFile(barePath, "utf8");
    await writeFile(barePath, text.replace(`const marker = ${from};`, `const marker = ${to};`));
  };
  const atomic = async () => {
    const [from, to] = swap(counts.atomic++);
    const atomicText = await readFile(atomicPath, "utf8");
    const temporary = `${atomicPath}.tmp`;
    const handle = await open(temporary, "w");
    await handle.writeFile(atomicText.replace(`const marker = ${from};`, `const marker = ${to};`));
    await handle.sync();
    await handle.close();
    await rename(temporary, atomicPath);
  };
  const versusBare = await measureRatio({ ours: tool, baseline: bare, callsPerRound: iterations });
  const versusAtomic = await measureRatio({
    ours: tool,
    baseline: atomic,
    callsPerRound: iterations,
  });
  const ms = (result, side) => (result.refused ? "—" : result[side].toFixed(1));
  console.table([
    { case: "edit_file (hash, atomic write + fsync, diff)", "median ms": ms(versusBare, "ours") },
    { case: "bare readFile + replace + writeFile", "median ms": ms(versusBare, "baseline") },
    {
      case: "readFile + replace + temp/fsync/rename (reference)",
      "median ms": ms(versusAtomic, "baseline"),
    },
  ]);
  const verdict = versusBare.refused ? "REFUSED" : versusBare.ratio <= 1.5 ? "PASS" : "FAIL";
  console.log(`ratio edit_file / bare = ${formatRatio(versusBare)} (target ≤ 1.5): ${verdict}`);
  console.log(`ratio edit_file / atomic reference = ${formatRatio(versusAtomic)}`);
} finally {
  await rm(root, { recursive: true, force: true });
}
