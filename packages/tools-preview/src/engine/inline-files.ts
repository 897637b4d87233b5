import { errorMessage } from "@agentool/contract";
// The lexer's JavaScript build: no WebAssembly, so a host page whose policy refuses it still works.
import { parse as parseModule } from "es-module-lexer/js";
import { mediaTypeOf } from "./media-types.js";

/**
 * Where an artifact's folder lives in the page's eyes, in both backends: the document is
 * `<origin>/<path>`; relative URLs resolve against it. `.invalid` never resolves.
 */
export const ARTIFACT_ORIGIN = "http://artifact.preview.invalid";

/** Reads one of the artifact's files by its workspace path. */
export type ArtifactFileReader = (path: string) => Promise<Uint8Array>;

/** What inlining made of the document. */
export interface InlinedDocument {
  /** The document with its files as `data:` URLs (same lines as before). */
  html: string;
  /** The import map of its module graph (one line), or `""`. */
  importMap: string;
  /** Files that could not be read, with the reason (for the console). */
  problems: string[];
}

const textDecoder = new TextDecoder();
const textEncoder = new TextEncoder();

/** Tags whose `src` / `href` / `poster` name a file the page loads. */
const FILE_TAG = /<(script|link|img|source|audio|video|track|input|embed)\b[^>]*>/gi;
const FILE_ATTRIBUTE = /(\s(?:src|href|poster)\s*=\s*)("([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/gi;
const STYLE_BLOCK = /(<style\b[^>]*>)([\s\S]*?)(<\/style>)/gi;
const MODULE_BLOCK = /(<script\b[^>]*\btype\s*=\s*["']?module["']?[^>]*>)([\s\S]*?)(<\/script>)/gi;
const STYLED_TAG = /<[a-z][\w-]*\b[^>]*\sstyle\s*=\s*(?:"[^"]*"|'[^']*')[^>]*>/gi;
const STYLE_ATTRIBUTE = /(\sstyle\s*=\s*)("([^"]*)"|'([^']*)')/gi;
const CSS_URL = /url\(\s*(["']?)([^"')]+)\1\s*\)|@import\s+(["'])([^"']+)\3/gi;

/** The workspace path a URL names, when it is the artifact's origin's (`undefined` otherwise). */
function workspacePathOf(reference: string, base: string): string | undefined {
  if (
    /^(?:[a-z][a-z0-9+.-]*:|\/\/|#)/i.test(reference.trim()) &&
    !reference.startsWith(ARTIFACT_ORIGIN)
  )
    return undefined;
  let url: URL;
  try {
    url = new URL(reference.trim(), base);
  } catch {
    return undefined;
  }
  if (url.origin !== ARTIFACT_ORIGIN) return undefined;
  try {
    const path = decodeURIComponent(url.pathname.replace(/^\/+/, ""));
    return path.length === 0 ? undefined : path;
  } catch {
    return undefined;
  }
}

function dataUrl(bytes: Uint8Array, mediaType: string): string {
  let binary = "";
  for (let index = 0; index < bytes.length; index += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  return `data:${mediaType};base64,${btoa(binary)}`;
}

/**
 * Inlines an artifact's own files for a page that has no server to ask (the iframe backend):
 * scripts, stylesheets (their `url()`s and `@import`s too), images, media and icons become
 * `data:` URLs in place, on their lines; module scripts get their relative imports rewritten to
 * the artifact's origin and an import map from those URLs to `data:` URLs of the modules
 * (the whole static graph, and dynamic imports of string literals). What the page fetches at
 * run time is answered by the driver's fetch bridge, not here.
 */
export class FileInliner {
  readonly #read: ArtifactFileReader;
  readonly #files = new Map<string, Promise<string | undefined>>();
  readonly #modules = new Map<string, Promise<void>>();
  readonly #importMap: Record<string, string> = {};
  /** Modules still being read (a module does not wait for its imports: cycles are fine). */
  readonly #loading: Promise<void>[] = [];
  readonly problems: string[] = [];

  /** @param read - reads a workspace path (confined, capped, secrets refused by the caller) */
  constructor(read: ArtifactFileReader) {
    this.#read = read;
  }

  /**
   * The document with its files inlined.
   *
   * @param html - the artifact
   * @param path - its workspace path
   * @returns the document, its import map and the problems met
   */
  async inline(html: string, path: string): Promise<InlinedDocument> {
    const base = `${ARTIFACT_ORIGIN}/${path.split("/").map(encodeURIComponent).join("/")}`;
    let text = await replaceAsync(
      html,
      STYLE_BLOCK,
      async (_, open: string, css: string, close: string) =>
        `${open}${await this.#css(css, base)}${close}`,
    );
    text = await replaceAsync(
      text,
      MODULE_BLOCK,
      async (_, open: string, code: string, close: string) =>
        `${open}${await this.#moduleSource(code, base)}${close}`,
    );
    text = await replaceAsync(text, FILE_TAG, async (tag: string, name: string) => {
      const isModule = name.toLowerCase() === "script" && /\btype\s*=\s*["']?module\b/i.test(tag);
      return replaceAsync(
        tag,
        FILE_ATTRIBUTE,
        async (whole, prefix: string, _q, double?: string, single?: string, bare?: string) => {
          const reference = double ?? single ?? bare ?? "";
          const file = workspacePathOf(reference, base);
          if (file === undefined) return whole;
          const inlined = isModule ? await this.#moduleUrl(file) : await this.#file(file);
          return inlined === undefined ? whole : `${prefix}"${inlined}"`;
        },
      );
    });
    text = await replaceAsync(text, STYLED_TAG, (tag) =>
      replaceAsync(
        tag,
        STYLE_ATTRIBUTE,
        async (_, prefix: string, _quoted, double?: string, single?: string) =>
          `${prefix}"${(await this.#css(double ?? single ?? "", base)).replace(/"/g, "&quot;")}"`,
      ),
    );
    while (this.#loading.length > 0) await Promise.all(this.#loading.splice(0));
    const entries = Object.keys(this.#importMap).length;
    return {
      html: text,
      importMap:
        entries === 0
          ? ""
          : `<script type="importmap">${JSON.stringify({ imports: this.#importMap }).replace(/</g, "\\u003c")}</script>`,
      problems: this.problems,
    };
  }

  /** A file as a `data:` URL (a stylesheet with its own references inlined); `undefined` when unreadable. */
  #file(path: string): Promise<string | undefined> {
    let pending = this.#files.get(path);
    if (pending === undefined) {
      pending = this.#readFile(path).then(async (bytes) => {
        if (bytes === undefined) return undefined;
        const mediaType = mediaTypeOf(path);
        const url = `${ARTIFACT_ORIGIN}/${path.split("/").map(encodeURIComponent).join("/")}`;
        // A script keeps its name in errors and stacks.
        if (mediaType.startsWith("text/javascript"))
          return dataUrl(
            textEncoder.encode(`${textDecoder.decode(bytes)}\n//# sourceURL=${url}`),
            mediaType,
          );
        if (!mediaType.startsWith("text/css")) return dataUrl(bytes, mediaType);
        const css = await this.#css(textDecoder.decode(bytes), url);
        return dataUrl(textEncoder.encode(css), mediaType);
      });
      this.#files.set(path, pending);
    }
    return pending;
  }

  async #readFile(path: string): Promise<Uint8Array | undefined> {
    try {
      return await this.#read(path);
    } catch (error) {
      this.problems.push(`preview could not serve ${path}: ${errorMessage(error)}`);
      return undefined;
    }
  }

  /** CSS with its `url()`s and `@import`s inlined (relative to `base`). */
  #css(css: string, base: string): Promise<string> {
    return replaceAsync(
      css,
      CSS_URL,
      async (
        whole,
        _quote?: string,
        reference?: string,
        importQuote?: string,
        imported?: string,
      ) => {
        const file = workspacePathOf(reference ?? imported ?? "", base);
        if (file === undefined) return whole;
        const inlined = await this.#file(file);
        if (inlined === undefined) return whole;
        return reference !== undefined
          ? `url("${inlined}")`
          : `@import ${importQuote}${inlined}${importQuote}`;
      },
    );
  }

  /** The module at `path` (and its graph) in the import map; its `data:` URL. */
  async #moduleUrl(path: string): Promise<string | undefined> {
    const url = `${ARTIFACT_ORIGIN}/${path.split("/").map(encodeURIComponent).join("/")}`;
    await this.#module(path, url);
    return this.#importMap[url];
  }

  #module(path: string, url: string): Promise<void> {
    let pending = this.#modules.get(url);
    if (pending === undefined) {
      pending = (async () => {
        const bytes = await this.#readFile(path);
        if (bytes === undefined) return;
        const source = await this.#moduleSource(textDecoder.decode(bytes), url);
        this.#importMap[url] = dataUrl(
          textEncoder.encode(`${source}\n//# sourceURL=${url}`),
          "text/javascript",
        );
      })();
      this.#modules.set(url, pending);
    }
    return pending;
  }

  /** A module's source with its relative specifiers made absolute, its imports loaded. */
  async #moduleSource(source: string, url: string): Promise<string> {
    let imports: ReadonlyArray<{ n?: string | undefined; s: number; e: number; d: number }>;
    try {
      [imports] = parseModule(source);
    } catch {
      return source; // Not a module the lexer reads: the browser reports its error.
    }
    let result = "";
    let last = 0;

    for (const entry of imports) {
      const specifier = entry.n;
      if (specifier === undefined || !/^(?:\.{1,2}\/|\/(?!\/))/.test(specifier)) continue;
      const absolute = new URL(specifier, url);
      const file = workspacePathOf(absolute.href, url);
      if (file === undefined) continue;
      this.#loading.push(this.#module(file, `${absolute.origin}${absolute.pathname}`));
      // Static imports span the specifier's characters; dynamic ones the string with its quotes.
      const quoted = entry.d > -1;
      result +=
        source.slice(last, entry.s) + (quoted ? JSON.stringify(absolute.href) : absolute.href);
      last = entry.e;
    }
    return result + source.slice(last);
  }
}

/** `String.replace` with an async replacer, matches replaced in order. */
async function replaceAsync(
  text: string,
  pattern: RegExp,
  replacer: (match: string, ...groups: never[]) => Promise<string>,
): Promise<string> {
  const matches = [...text.matchAll(pattern)];
  if (matches.length === 0) return text;
  const replacements = await Promise.all(
    matches.map((match) => replacer(match[0], ...(match.slice(1) as never[]))),
  );
  let result = "";
  let last = 0;
  matches.forEach((match, index) => {
    result += text.slice(last, match.index) + replacements[index];
    last = (match.index ?? 0) + match[0].length;
  });
  return result + text.slice(last);
}
