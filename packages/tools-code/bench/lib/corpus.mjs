// A deterministic corpus of real code for the tools-code bench: 5,000 `.ts`/`.js` source files
// (no `.d.ts`, no minified bundles, under 200 KB) from the repository's own node_modules/.pnpm,
// chosen by a hash of their path (the same files on every run of the same install), copied into
// a temporary folder with their package-relative paths.
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";

const SOURCE = /\.(?:ts|mts|cts|js|mjs|cjs)$/;
const SKIP = /\.d\.[mc]?ts$|\.min\.js$/;

function walk(directory, found) {
  let entries;
  try {
    entries = readdirSync(directory, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) walk(path, found);
    else if (entry.isFile() && SOURCE.test(entry.name) && !SKIP.test(entry.name)) found.push(path);
  }
}

/** The chosen files' absolute paths, sorted by hash. */
export function chooseFiles(pnpmDirectory, count = 5_000) {
  const found = [];
  walk(pnpmDirectory, found);
  const ranked = found
    .filter((path) => {
      const size = statSync(path).size;
      return size > 0 && size < 200_000;
    })
    .map((path) => ({
      path,
      key: createHash("sha1").update(relative(pnpmDirectory, path)).digest("hex"),
    }))
    .sort((left, right) => (left.key < right.key ? -1 : 1));
  return ranked.slice(0, count).map((entry) => entry.path);
}

/** Copies the chosen files under `target`; returns { files, bytes, lines }. */
export function buildCorpus(pnpmDirectory, target, count = 5_000) {
  const chosen = chooseFiles(pnpmDirectory, count);
  let bytes = 0;
  for (const path of chosen) {
    const destination = join(
      target,
      relative(pnpmDirectory, path).replace(/(^|\/)node_modules\//g, "$1nm/"),
    );
    mkdirSync(dirname(destination), { recursive: true });
    copyFileSync(path, destination);
    bytes += statSync(path).size;
  }
  return { files: chosen.length, bytes };
}
