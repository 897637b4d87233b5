// The walk of node-html-markdown 2.0.0's `Visitor` (MIT, crosstype/node-html-markdown), rewritten
// over a MarkdownBuffer so that writing Markdown is linear: the upstream visitor re-reads the end
// of one growing string after every append, which flattens it each time (quadratic; 1.5 MB pages
// took 50 s in one piece). Same translators, same parser, same steps, same output.
import type { NodeHtmlMarkdown } from "node-html-markdown";
import { PostProcessResult } from "node-html-markdown";
import { isTranslatorConfig } from "node-html-markdown/dist/translator.js";
import { parseHTML } from "node-html-markdown/dist/utilities.js";
import { trimNewLines } from "./linear-translators.js";
import { MarkdownBuffer } from "./markdown-buffer.js";

/** What the walk reads of a node-html-parser node. */
interface ParsedNode {
  nodeType: number;
  childNodes: ParsedNode[];
  tagName?: string;
  preserve?: boolean;
  text?: string;
  trimmedText?: string;
  wholeText?: string;
  isWhitespace?: boolean;
  parentNode?: ParsedNode | null;
}

/** node-html-markdown's per-node metadata (list numbering, whitespace, escaping, tables). */
interface NodeMetadata {
  indentLevel?: number;
  listKind?: string;
  listItemNumber?: number;
  noEscape?: boolean;
  preserveWhitespace?: boolean;
  translators?: Record<string, unknown>;
  tableMeta?: { node: ParsedNode; caption?: string };
}

/** A translator's configuration, as node-html-markdown's `TranslatorConfig`. */
interface TranslatorConfig {
  prefix?: string;
  postfix?: string;
  content?: string;
  postprocess?: (context: TranslatorContext & { content: string }) => unknown;
  recurse?: boolean;
  surroundingNewlines?: boolean | number;
  ignore?: boolean;
  noEscape?: boolean;
  spaceIfRepeatingChar?: boolean;
  childTranslators?: Record<string, unknown>;
  preserveIfEmpty?: boolean;
}

/** What a translator receives: node-html-markdown's `TranslatorContext`, in one fixed shape. */
type TranslatorContext = NodeMetadata & {
  node: ParsedNode;
  options: NodeHtmlMarkdown["options"];
  parent: ParsedNode | null | undefined;
  nodeMetadata: Map<ParsedNode, NodeMetadata>;
  visitor: MarkdownVisitor;
  base: TranslatorConfig | undefined;
  content?: string;
};

type TranslatorFactory = ((context: TranslatorContext) => TranslatorConfig) & {
  base?: TranslatorConfig;
};

const TEXT_NODE = 3;
const ELEMENT_NODE = 1;
const CONTENTLESS_ELEMENTS = new Set(["BR", "HR", "IMG"]);
const WHITESPACE_RUN = /\s+/g;

/**
 * A copy of the metadata with every field present, so all metadata objects share one shape
 * (upstream spreads objects of varying shapes, which V8 copies on a slow path).
 */
function copyMetadata(metadata: NodeMetadata | undefined): NodeMetadata {
  return {
    indentLevel: metadata?.indentLevel,
    listKind: metadata?.listKind,
    listItemNumber: metadata?.listItemNumber,
    noEscape: metadata?.noEscape,
    preserveWhitespace: metadata?.preserveWhitespace,
    translators: metadata?.translators,
    tableMeta: metadata?.tableMeta,
  };
}

/**
 * One walk of a parsed document, written into a {@link MarkdownBuffer}. The translators receive
 * it as `visitor` (they read `instance` and call `addOrGetUrlDefinition`).
 */
export class MarkdownVisitor {
  readonly instance: NodeHtmlMarkdown;
  readonly nodeMetadata = new Map<ParsedNode, NodeMetadata>();
  readonly urlDefinitions: string[] = [];
  readonly buffer = new MarkdownBuffer();
  readonly #options: NodeHtmlMarkdown["options"];
  readonly #escapeTrigger: RegExp | undefined;
  readonly #translators: { get(tag: string): unknown };

  /**
   * @param instance - the converter whose options and translators are used
   * @param root - the parsed document
   * @param escapeTrigger - a character class every text the escapes could change contains (a
   *   text without any skips them); `undefined` runs them on every text
   */
  constructor(instance: NodeHtmlMarkdown, root: ParsedNode, escapeTrigger?: RegExp) {
    this.instance = instance;
    this.#escapeTrigger = escapeTrigger;
    this.#options = instance.options;
    this.#translators = instance.translators as unknown as { get(tag: string): unknown };
    this.#markContent(root);
    this.visitNode(root);
  }

  /** node-html-markdown's reference-link numbering (unused with inline links, kept for translators). */
  addOrGetUrlDefinition(url: string): number {
    let id = this.urlDefinitions.indexOf(url);
    if (id < 0) id = this.urlDefinitions.push(url) - 1;
    return id + 1;
  }

  /** Appends text (see {@link MarkdownBuffer.append}). */
  appendResult(text: string, startPosition?: number, spaceIfRepeatingCharacter?: boolean): void {
    this.buffer.append(text, startPosition, spaceIfRepeatingCharacter);
  }

  /** Appends line breaks until `count` end the text. */
  appendNewlines(count: number): void {
    this.buffer.append("\n".repeat(Math.max(0, +count - this.buffer.newLines)));
  }

  /** Flags the nodes that have content (text, `<br>`/`<hr>`/`<img>`, a translator that keeps empties). */
  #markContent(root: ParsedNode): void {
    const translators = this.#translators;
    const visit = (node: ParsedNode): boolean => {
      let keep = false;
      if (
        node.nodeType === TEXT_NODE ||
        (node.nodeType === ELEMENT_NODE &&
          CONTENTLESS_ELEMENTS.has((node.tagName || "").toUpperCase()))
      ) {
        keep = true;
      } else {
        const children = node.childNodes;
        if (children.length === 0) {
          const translator = node.tagName ? translators.get(node.tagName) : undefined;
          if (
            typeof translator === "function" ||
            (translator as TranslatorConfig | undefined)?.preserveIfEmpty
          ) {
            keep = true;
          }
        } else {
          for (const child of children) {
            if (visit(child)) keep = true;
          }
        }
      }
      node.preserve = keep;
      return keep;
    };
    visit(root);
  }

  /** Collapses whitespace and escapes Markdown, as node-html-markdown's `processText`. */
  #processText(text: string, metadata: NodeMetadata | undefined): string {
    let result = text;
    if (!metadata?.preserveWhitespace) result = result.replace(WHITESPACE_RUN, " ");
    if (metadata?.noEscape) return result;
    if (this.#escapeTrigger !== undefined && !this.#escapeTrigger.test(result)) return result;
    const { lineStartEscape, globalEscape, textReplace } = this.#options;
    result = result
      .replace(globalEscape[0], globalEscape[1])
      .replace(lineStartEscape[0], lineStartEscape[1]);
    if (textReplace)
      for (const [pattern, replacement] of textReplace)
        result = result.replace(pattern, replacement);
    return result;
  }

  #visitText(node: ParsedNode, metadata: NodeMetadata | undefined): void {
    const buffer = this.buffer;
    if (node.wholeText) {
      node.text ??= node.wholeText;
      node.trimmedText ??= trimNewLines(node.wholeText);
    }
    if (node.isWhitespace && !metadata?.preserveWhitespace) {
      if (buffer.length === 0 || buffer.whitespace > 0) return;
      buffer.append(" ");
      return;
    }
    const source = (
      metadata?.preserveWhitespace ? node.text : node.text || node.trimmedText
    ) as string;
    let processed = this.#processText(source, metadata);
    if (!metadata?.preserveWhitespace && processed) {
      if (source && source[0] === "\n") processed = processed.replace(/^ /, "");
      if (source && !/\s$/.test(source)) processed = processed.replace(/ +$/, "");
    }
    buffer.append(processed);
  }

  /** Writes one node and its children (node-html-markdown's `visitNode`, step for step). */
  visitNode(node: ParsedNode, textOnly?: boolean, metadata?: NodeMetadata): void {
    if (!node.preserve) return;
    if (node.nodeType === TEXT_NODE) {
      this.#visitText(node, metadata);
      return;
    }
    if (textOnly || node.nodeType !== ELEMENT_NODE) return;
    const buffer = this.buffer;
    const tagName = (node.tagName || "").toUpperCase();
    const translatorOrFactory = (
      tagName
        ? metadata?.translators
          ? metadata.translators[tagName]
          : this.#translators.get(node.tagName as string)
        : undefined
    ) as TranslatorConfig | TranslatorFactory | undefined;
    switch (tagName) {
      case "UL":
      case "OL":
        metadata = copyMetadata(metadata);
        metadata.listItemNumber = 0;
        metadata.listKind = node.tagName as string;
        metadata.indentLevel = (metadata.indentLevel ?? -1) + 1;
        break;
      case "LI":
        if (metadata?.listKind === "OL")
          metadata.listItemNumber = (metadata.listItemNumber ?? 0) + 1;
        break;
      case "PRE":
        metadata = copyMetadata(metadata);
        metadata.preserveWhitespace = true;
        break;
      case "TABLE":
        metadata = copyMetadata(metadata);
        metadata.tableMeta = { node };
    }
    if (metadata) this.nodeMetadata.set(node, metadata);
    if (!translatorOrFactory) {
      for (const child of node.childNodes) this.visitNode(child, textOnly, metadata);
      return;
    }
    let config: TranslatorConfig;
    let context: TranslatorContext | undefined;
    if (!isTranslatorConfig(translatorOrFactory)) {
      const factory = translatorOrFactory as TranslatorFactory;
      context = this.#context(node, metadata, factory.base);
      // a factory returns a fresh object: the base's keys it lacks are added to it (the same
      // settings as upstream's `{ ...base, ...factory(context) }`, without a copy)
      config = factory(context);
      const base = factory.base;
      if (base !== undefined) {
        for (const key of Object.keys(base) as (keyof TranslatorConfig)[]) {
          if (!(key in config)) (config as Record<string, unknown>)[key] = base[key];
        }
      }
    } else config = translatorOrFactory as TranslatorConfig;
    if (config.ignore) return;
    if (config.noEscape && !metadata?.noEscape) {
      metadata = copyMetadata(metadata);
      metadata.noEscape = config.noEscape;
      this.nodeMetadata.set(node, metadata);
    }
    if (config.childTranslators && config.childTranslators !== metadata?.translators) {
      metadata = copyMetadata(metadata);
      metadata.translators = config.childTranslators;
      this.nodeMetadata.set(node, metadata);
    }
    const startOuter = buffer.length;
    if (config.surroundingNewlines) this.appendNewlines(+config.surroundingNewlines);
    if (config.prefix) buffer.append(config.prefix);
    if (typeof config.content === "string") {
      buffer.append(config.content, undefined, config.spaceIfRepeatingChar);
    } else {
      const start = buffer.length;
      for (const child of node.childNodes)
        this.visitNode(child, config.recurse === false, metadata);
      if (config.postprocess) {
        // upstream passes a copy of the context with `content`; the context is ours and fresh
        const postContext = (context ?? this.#context(node, metadata)) as TranslatorContext & {
          content: string;
        };
        postContext.content = buffer.textFrom(start);
        const outcome = config.postprocess(postContext);
        if (outcome === PostProcessResult.RemoveNode) {
          if (node.tagName === "LI" && metadata?.listItemNumber) metadata.listItemNumber -= 1;
          buffer.append("", startOuter);
          return;
        }
        if (typeof outcome === "string") buffer.append(outcome, start, config.spaceIfRepeatingChar);
      }
    }
    if (config.postfix) buffer.append(config.postfix);
    if (config.surroundingNewlines) this.appendNewlines(+config.surroundingNewlines);
  }

  /** node-html-markdown's `createTranslatorContext`: the node, options, visitor and metadata. */
  #context(
    node: ParsedNode,
    metadata: NodeMetadata | undefined,
    base?: TranslatorConfig,
  ): TranslatorContext {
    return {
      node,
      options: this.#options,
      parent: node.parentNode,
      nodeMetadata: this.nodeMetadata,
      visitor: this,
      base,
      indentLevel: metadata?.indentLevel,
      listKind: metadata?.listKind,
      listItemNumber: metadata?.listItemNumber,
      noEscape: metadata?.noEscape,
      preserveWhitespace: metadata?.preserveWhitespace,
      translators: metadata?.translators,
      tableMeta: metadata?.tableMeta,
    };
  }
}

/**
 * Converts HTML with a node-html-markdown instance's options and translators, through
 * {@link MarkdownVisitor} (node-html-markdown's `translate` for one string, in linear time).
 *
 * @param instance - the configured converter
 * @param html - the document
 * @param escapeTrigger - see {@link MarkdownVisitor}'s constructor
 * @returns Markdown
 */
export function translateHtml(
  instance: NodeHtmlMarkdown,
  html: string,
  escapeTrigger?: RegExp,
): string {
  const root = parseHTML(html, instance.options) as unknown as ParsedNode;
  const visitor = new MarkdownVisitor(instance, root, escapeTrigger);
  let result = visitor.buffer.toString();
  if (instance.options.useLinkReferenceDefinitions) {
    if (/[^\r\n]/.test(result.slice(-1))) result += "\n";
    visitor.urlDefinitions.forEach((url, index) => {
      result += `\n[${index + 1}]: ${url}`;
    });
  }
  const { maxConsecutiveNewlines } = instance.options;
  if (maxConsecutiveNewlines) {
    result = result.replace(
      new RegExp(String.raw`(?:\r?\n\s*)+((?:\r?\n\s*){${maxConsecutiveNewlines}})`, "g"),
      "$1",
    );
  }
  result = trimNewLines(result);
  if (result.endsWith(" ") && !result.endsWith("  ")) result = result.trimEnd();
  return result;
}
