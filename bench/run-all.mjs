// Runs every benchmark, one after the other: bench/*.mjs here and packages/*/bench/*.mjs.
// `pnpm bench` runs them all; `pnpm bench grep read` runs those whose file name contains a word.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { basename, join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const words = process.argv.slice(2).filter((word) => word !== "--");
const scripts = readdirSync(join(root, "bench"))
  .filter((file) => file.endsWith(".mjs") && file !== basename(import.meta.filename))
  .sort()
  .map((file) => join(root, "bench", file));
for (const folder of readdirSync(join(root, "packages"))) {
  const directory = join(root, "packages", folder, "bench");
  if (!existsSync(directory)) continue;
  for (const file of readdirSync(directory).sort()) {
    if (file.endsWith(".mjs")) scripts.push(join(directory, file));
  }
}
const chosen = scripts.filter(
  (script) => words.length === 0 || words.some((word) => basename(script).includes(word)),
);
let failed = 0;
for (const script of chosen) {
  console.log(`\n━━━ ${script.slice(root.length + 1)}`);
  const child = spawnSync(process.execPath, ["--expose-gc", script], {
    stdio: "inherit",
    cwd: join(script, ".."),
  });
  if (child.status !== 0) failed += 1;
}
process.exit(failed > 0 ? 1 : 0);
