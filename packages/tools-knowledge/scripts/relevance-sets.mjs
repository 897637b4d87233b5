// Labelled relevance sets from text nobody here wrote (issue 30), built on this machine from
// Debian's own files — the corpora are never committed, only this builder:
//
// - "man-pages": the Linux man-pages project's pages (Debian's `manpages` and `manpages-dev`,
//   sections 2–7), rendered by groff as `man` shows them, headings made Markdown headings; the
//   query of a page is its NAME line's description with the names removed ("open, openat, creat -
//   open and possibly create a file" → "open and possibly create a file"), and the NAME section is
//   taken out of the page (the query must not be a sentence copied from the answer); the page is
//   the answer.
// - "debian-readmes": the README of each installed package under /usr/share/doc (upstream's
//   README before Debian's README.Debian, gzip'ed or not), one package per source package; the
//   query is the package's one-line description (`dpkg-query`'s synopsis) with the package's
//   own name removed.
//
// Known-item sets: one right file per query; pages or packages whose queries coincide are left out.
// Built into a cache folder (one per set and package version), reused while it exists.
//
//   import { buildManPageSet, buildDebianReadmeSet } from "../scripts/relevance-sets.mjs";
//   const set = buildManPageSet({ cacheDirectory, every: 4 }); // { name, folder, queries }
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from "node:fs";
import { basename, join } from "node:path";
import { gunzipSync } from "node:zlib";

/**
 * @typedef {object} LabelledQuery
 * @property {string} query - what a user would type
 * @property {string} file - the right file, relative to the set's folder
 */

/**
 * @typedef {object} RelevanceSet
 * @property {string} name - the set's name
 * @property {string} folder - the corpus folder (Markdown files)
 * @property {LabelledQuery[]} queries - one per file
 */

/** @param {string} command @param {string[]} args @returns {string} its standard output */
function run(command, args, input) {
  const result = spawnSync(command, args, {
    input,
    encoding: "utf8",
    maxBuffer: 1 << 28,
    env: { PATH: "/usr/bin:/bin", LANG: "C.UTF-8", MANWIDTH: "80" },
  });
  if (result.error !== undefined) throw result.error;
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(" ")} failed: ${result.stderr.slice(0, 400)}`);
  }
  return result.stdout;
}

/** @param {string} name @returns {string | undefined} the installed version of a Debian package */
function packageVersion(name) {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query's format, not a template
  const result = spawnSync("dpkg-query", ["-W", "-f=${Version}", name], { encoding: "utf8" });
  return result.status === 0 && result.stdout.length > 0 ? result.stdout : undefined;
}

/** @param {string} path @returns {string} a file's text, gunzipped when it ends in .gz */
function readText(path) {
  const bytes = readFileSync(path);
  return (path.endsWith(".gz") ? gunzipSync(bytes) : bytes).toString("utf8");
}

/** Words of a query, lower case, for comparing queries. */
const normalised = (text) => (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join(" ");

/**
 * Writes a set into `folder` through a temporary folder renamed at the end (a half-built set is
 * never reused), unless it is there already.
 *
 * @param {string} folder - where the set lives
 * @param {() => Array<{ file: string, text: string, query: string }>} build - the documents
 * @returns {LabelledQuery[]} the queries
 */
function cached(folder, build) {
  const labels = join(folder, "queries.json");
  if (existsSync(labels)) return JSON.parse(readFileSync(labels, "utf8"));
  const partial = `${folder}.partial-${process.pid}`;
  mkdirSync(join(partial, "corpus"), { recursive: true });
  const seenQueries = new Set();
  const seenTexts = new Set();
  const queries = [];
  for (const document of build()) {
    const words = normalised(document.query);
    const digest = createHash("sha256").update(document.text).digest("hex");
    // Known-item sets: a query two files answer, or a text two packages share, is ambiguous.
    if (words.split(" ").length < 2 || seenQueries.has(words) || seenTexts.has(digest)) continue;
    seenQueries.add(words);
    seenTexts.add(digest);
    writeFileSync(join(partial, "corpus", document.file), document.text);
    queries.push({ query: document.query, file: document.file });
  }
  writeFileSync(join(partial, "queries.json"), `${JSON.stringify(queries, null, 1)}\n`);
  mkdirSync(join(folder, ".."), { recursive: true });
  renameSync(partial, folder);
  return queries;
}

// ── man-pages ────────────────────────────────────────────────────────────────────────────────
const MAN_PACKAGES = ["manpages", "manpages-dev"];

/**
 * A rendered page as Markdown: its title line a `#` heading, each section a `##` heading — and
 * without its NAME section, which is the query: the page must be found by what it says, not by
 * the sentence copied from it (with it, every ranker finds nearly every page).
 */
function pageToMarkdown(rendered, title) {
  const lines = rendered.replace(/\r/g, "").split("\n");
  const out = [`# ${title}`, ""];
  let inName = false;
  for (const line of lines.slice(1)) {
    if (/^[A-Z][A-Z0-9 ,/_-]*$/.test(line)) {
      inName = line === "NAME";
      if (!inName) out.push(`## ${line}`, "");
    } else if (!inName) out.push(line.startsWith("       ") ? line.slice(7) : line);
  }
  return `${out
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim()}\n`;
}

/**
 * The man-pages set: every `every`-th page of sections 2–7 (sorted by path), `.so` redirects
 * left out.
 *
 * @param {{ cacheDirectory: string, every?: number }} options - where sets are cached; 1 keeps
 *   every page (~2,000), 4 about 500, 12 about 170
 * @returns {RelevanceSet} the set
 */
export function buildManPageSet({ cacheDirectory, every = 4 }) {
  const versions = MAN_PACKAGES.map((name) => `${name}-${packageVersion(name) ?? "missing"}`);
  if (versions.some((version) => version.endsWith("-missing"))) {
    throw new Error(
      "the man-pages set needs Debian's manpages and manpages-dev (and groff-base): run `node scripts/setup-system.mjs test`, or apt-get install manpages manpages-dev groff-base",
    );
  }
  const folder = join(cacheDirectory, `man-pages-2-${versions.join("-")}-every-${every}`);
  const queries = cached(folder, () => {
    const pages = MAN_PACKAGES.flatMap((name) => run("dpkg-query", ["-L", name]).split("\n"))
      .filter((path) => /^\/usr\/share\/man\/man[2-7]\/[^/]+\.gz$/.test(path))
      .sort();
    const documents = [];
    let position = 0;
    for (const path of pages) {
      const source = readText(path);
      if (/^\.so /m.test(source.split("\n").find((line) => !line.startsWith('.\\"')) ?? ""))
        continue;
      position += 1;
      if ((position - 1) % every !== 0) continue;
      const rendered = run("groff", ["-man", "-Tutf8", "-P-cbou", "-rLL=80n"], source);
      const name = /\nNAME\n\s+(.+?)\s+[-\u2010\u2212]\s+(.+?)\n(?:\S|\n)/s.exec(rendered);
      if (name === null) continue;
      const page = basename(path, ".gz");
      documents.push({
        file: `${page}.md`,
        text: pageToMarkdown(rendered, page),
        query: (name[2] ?? "").replace(/\s+/g, " ").trim(),
      });
    }
    return documents;
  });
  return { name: "man-pages", folder: join(folder, "corpus"), queries };
}

// ── debian-readmes ───────────────────────────────────────────────────────────────────────────
/** README file names in the order one is preferred (upstream's before Debian's). */
const README_ORDER = [/^readme(\.(md|markdown|txt|rst))?(\.gz)?$/i, /^readme\..*(\.gz)?$/i];

/**
 * The Debian READMEs set: one README per installed source package under /usr/share/doc, at
 * least `minimumCharacters` long.
 *
 * @param {{ cacheDirectory: string, minimumCharacters?: number }} options - where sets are cached
 * @returns {RelevanceSet} the set
 */
export function buildDebianReadmeSet({ cacheDirectory, minimumCharacters = 400 }) {
  const listing = run("dpkg-query", [
    "-W",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query's format, not a template
    "-f=${binary:Package}\\t${source:Package}\\t${Version}\\t${binary:Synopsis}\\n",
  ])
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => line.split("\t"))
    .sort((left, right) => (left[0] < right[0] ? -1 : left[0] > right[0] ? 1 : 0));
  const fingerprint = createHash("sha256")
    .update(listing.map((fields) => fields.slice(0, 3).join(" ")).join("\n"))
    .digest("hex")
    .slice(0, 12);
  const folder = join(cacheDirectory, `debian-readmes-${fingerprint}`);
  const queries = cached(folder, () => {
    const documents = [];
    const sources = new Set();
    for (const [binary, source, , synopsis] of listing) {
      const name = binary.replace(/:.*$/, "");
      const directory = join("/usr/share/doc", name);
      if (sources.has(source) || synopsis === undefined || !existsSync(directory)) continue;
      let entries;
      try {
        entries = readdirSync(directory);
      } catch {
        continue;
      }
      const readme = README_ORDER.map(
        (pattern) => entries.filter((entry) => pattern.test(entry)).sort()[0],
      ).find((entry) => entry !== undefined);
      if (readme === undefined) continue;
      let text;
      try {
        text = readText(join(directory, readme));
      } catch {
        continue; // a link out of the folder, unreadable
      }
      if (text.length < minimumCharacters || text.includes("\u0000")) continue;
      // The package's own name (and its parts) would give the answer away.
      const nameWords = new Set(normalised(name.replace(/[-.+]/g, " ")).split(" "));
      nameWords.add(normalised(name));
      const query = synopsis
        .split(/\s+/)
        .filter((word) => !nameWords.has(normalised(word)))
        .join(" ")
        .trim();
      sources.add(source);
      documents.push({ file: `${name}.md`, text, query });
    }
    return documents;
  });
  return { name: "debian-readmes", folder: join(folder, "corpus"), queries };
}

// ── the hand-written set ─────────────────────────────────────────────────────────────────────
/**
 * The set written for the relevance test (src/test-support/relevance: 48 Markdown files, 74
 * queries), read from its files: the queries from `queries.ts` (each `query` with its `file`).
 *
 * @returns {RelevanceSet} the set
 */
export function readHandWrittenSet() {
  const folder = new URL("../src/test-support/relevance/", import.meta.url);
  const source = readFileSync(new URL("queries.ts", folder), "utf8");
  const queries = [
    ...source.matchAll(/query: ("(?:[^"\\]|\\.)*"),\s*file: ("(?:[^"\\]|\\.)*")/g),
  ].map((match) => ({ query: JSON.parse(match[1]), file: JSON.parse(match[2]) }));
  return { name: "hand-written", folder: new URL("corpus/", folder).pathname, queries };
}
