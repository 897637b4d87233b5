import { createHash } from "node:crypto";
import { realpathSync, statSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { AgentoolError, createSecretPathMatcher, normalizeRelativePath } from "@agentool/contract";
import type { KnowledgeSource } from "@agentool/tools-knowledge";

/**
 * The folder inside the knowledge folder where `web_fetch` saves pages as Markdown (read-write
 * mode, web and knowledge families both served): `<knowledge folder>/web-pages/`.
 */
export const WEB_PAGES_FOLDER = "web-pages";

/** A knowledge folder resolved against a confinement root. */
export interface KnowledgeFolder {
  /** Its real absolute path (it may not exist yet; then its nearest existing parent's real path plus the rest). */
  path: string;
  /** Its path relative to the root, `/`-separated; `""` when it is the root itself. */
  relative: string;
}

const isSecretPath = createSecretPathMatcher();

/**
 * Normalises a `--knowledge-dir` value to a root-relative, `/`-separated path without touching
 * the file system: `..` that climbs above the root, `~`, NUL bytes and absolute paths outside
 * `roots` are refused.
 *
 * @param value - the value as given (relative to the root, or absolute inside it)
 * @param roots - absolute forms of the root (as given and its real path); none = absolute paths refused
 * @returns the relative path (`""` for the root itself)
 * @throws AgentoolError naming the flag and the fix
 * @example
 * normalizeKnowledgeDir("./notes/../sources"); // "sources"
 */
export function normalizeKnowledgeDir(value: string, roots: readonly string[] = []): string {
  const normalized = normalizeRelativePath(value, {
    argument: "--knowledge-dir",
    rootName: "project",
    roots,
  });
  if (normalized.problem !== undefined) {
    const absolute = isAbsolute(value.trim());
    throw new AgentoolError(
      `${normalized.problem} ${
        absolute && roots.length === 0
          ? "An absolute --knowledge-dir needs a --root it lies inside; or give it relative to the root (e.g. --knowledge-dir sources)."
          : "Give a folder inside the root, relative to it (e.g. --knowledge-dir sources)."
      }`,
    );
  }
  return normalized.path;
}

/** The real path of `path`, or of its nearest existing parent with the rest appended. */
export function realPathOfNearest(path: string): string {
  const missing: string[] = [];
  let current = resolve(path);
  for (;;) {
    try {
      return join(realpathSync(current), ...missing.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return resolve(path);
      missing.push(basename(current));
      current = parent;
    }
  }
}

/** Whether `path` is `root` or lies under it (both real paths). */
export function isInside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);
}

/**
 * Resolves the knowledge folder inside a confinement root on real paths: a symlink that leads
 * out of the root, a file, a secret path or a folder inside `.git` are refused. The folder need
 * not exist yet (an empty corpus until files arrive).
 *
 * @param root - the real path of the confinement root
 * @param knowledgeDir - the root-relative folder ({@link normalizeKnowledgeDir}); `""` = the root
 * @param label - how messages name the root (`"--root"`, `"the client's root"`)
 * @returns the folder's real path and its root-relative path
 * @throws AgentoolError naming the folder and the fix
 * @example
 * resolveKnowledgeFolder("/work/project", "sources"); // { path: "/work/project/sources", relative: "sources" }
 */
export function resolveKnowledgeFolder(
  root: string,
  knowledgeDir: string,
  label = "the root",
): KnowledgeFolder {
  const target = join(root, ...knowledgeDir.split("/").filter((part) => part.length > 0));
  const real = realPathOfNearest(target);
  if (!isInside(real, root)) {
    throw new AgentoolError(
      `--knowledge-dir ${knowledgeDir} resolves to ${real}, outside ${label} ${root}: give a folder inside the root (a symlink may not lead out of it).`,
    );
  }
  const relativePath = relative(root, real).split(sep).join("/");
  const secret =
    relativePath !== "" &&
    (isSecretPath(relativePath) || isSecretPath(`${relativePath}/document.md`));
  if (relativePath.split("/").includes(".git") || secret) {
    throw new AgentoolError(
      `--knowledge-dir ${knowledgeDir} is inside .git or a secret path: give an ordinary folder of documents (e.g. --knowledge-dir sources).`,
    );
  }
  const info = statSync(real, { throwIfNoEntry: false });
  if (info !== undefined && !info.isDirectory()) {
    throw new AgentoolError(
      `--knowledge-dir ${knowledgeDir} is a file, not a folder: give the folder that holds the documents.`,
    );
  }
  return { path: real, relative: relativePath };
}

/** Where {@link knowledgeCacheDirectory} looks, from the environment. */
export interface KnowledgeCacheEnvironment {
  /** `XDG_CACHE_HOME` (used when absolute). */
  XDG_CACHE_HOME?: string | undefined;
}

/**
 * The folder for the sidecar index of a knowledge folder in read-only mode, outside the root so
 * nothing is written into the user's folder: `$XDG_CACHE_HOME/agentool/knowledge/<sha-256 of the
 * folder's real path>`, else `~/.cache/agentool/knowledge/<hash>`, else
 * `<os.tmpdir()>/agentool-knowledge-<uid>/<hash>` — the first that lies outside the root.
 *
 * @param folder - the knowledge folder's real path
 * @param root - the real path of the confinement root
 * @param options - `base` overrides the candidates (the library's `knowledgeCacheDirectory`); `environment` defaults to `process.env`
 * @returns the folder, or `undefined` when every candidate lies inside the root
 * @example
 * knowledgeCacheDirectory("/work/project", "/work/project");
 * // "/home/me/.cache/agentool/knowledge/3f1c…"
 */
export function knowledgeCacheDirectory(
  folder: string,
  root: string,
  options: { base?: string; environment?: KnowledgeCacheEnvironment } = {},
): string | undefined {
  const hash = createHash("sha256").update(folder).digest("hex");
  const environment = options.environment ?? process.env;
  const candidates: string[] = [];
  if (options.base !== undefined) candidates.push(resolve(options.base));
  else {
    const xdg = environment.XDG_CACHE_HOME;
    if (xdg !== undefined && isAbsolute(xdg)) candidates.push(join(xdg, "agentool", "knowledge"));
    let home = "";
    try {
      home = homedir();
    } catch {
      // no home directory
    }
    if (home.length > 0) candidates.push(join(home, ".cache", "agentool", "knowledge"));
    const uid = typeof process.getuid === "function" ? String(process.getuid()) : "user";
    candidates.push(join(tmpdir(), `agentool-knowledge-${uid}`));
  }
  for (const candidate of candidates) {
    if (!isInside(realPathOfNearest(candidate), root)) return join(candidate, hash);
  }
  return undefined;
}

/**
 * Makes a corpus source over a knowledge folder below the root answer in root-relative paths:
 * each hit's `file` and `reference` get the folder's root-relative prefix, so `read_file` (confined
 * to the root) opens them. A `path_prefix` that starts with that prefix is read relative to the
 * root; any other relative to the knowledge folder (as the tool's input describes it).
 *
 * @param source - the corpus source of the knowledge folder
 * @param folder - the folder's root-relative path; `""` returns `source` itself
 * @returns the source, answering in root-relative paths
 * @example
 * const searchable = rootRelativeSource(createCorpusSource({ root: "/p/sources" }), "sources");
 */
export function rootRelativeSource(source: KnowledgeSource, folder: string): KnowledgeSource {
  if (folder === "") return source;
  const prefix = `${folder}/`;
  return {
    async search(request, context) {
      const inner = { ...request };
      const pathPrefix = request.path_prefix;
      if (pathPrefix !== undefined && (pathPrefix === folder || pathPrefix.startsWith(prefix))) {
        const rest = pathPrefix.slice(Math.min(prefix.length, pathPrefix.length));
        if (rest.length === 0) delete inner.path_prefix;
        else inner.path_prefix = rest;
      }
      const result = await source.search(inner, context);
      return {
        ...result,
        hits: result.hits.map((hit) => ({
          ...hit,
          file: `${prefix}${hit.file}`,
          reference: `${prefix}${hit.reference}`,
        })),
      };
    },
  };
}
