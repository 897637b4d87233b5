/**
 * The tokenizer of the knowledge family's lexical (BM25) index, for English and CJK text.
 *
 * - Latin (and every other spaced script): words are runs of letters, digits and marks; they are
 *   NFKC-normalised, lowercased, diacritics folded (`café` → `cafe`, `Straße` → `strasse`) and
 *   lightly stemmed (Porter's step 1 plus the final-e rule: plurals, `-ed`, `-ing`, `-y`, `-e`), so
 *   `caches`, `caching` and `cached` meet `cache`. A camelCase word is indexed whole and by its
 *   parts (`createLexicalIndex` → `createlexicalindex`, `create`, `lexical`, `index`); `snake_case`
 *   and `kebab-case` split at the separator.
 * - Han, Hiragana, Katakana and Hangul runs (no spaces between words) become overlapping character
 *   bigrams (`東京都` → `東京`, `京都`), the standard choice of CJK search engines. Documents also
 *   index each character alone so a one-character query finds it; a query run of two or more
 *   characters uses bigrams only.
 * - English stop words (`the`, `of`, `how`, …) are dropped unless `stopWords: false`.
 *
 * The same function must tokenize documents and queries (`mode` only changes the CJK unigrams), and
 * an index built with one {@link TOKENIZER_VERSION} must be rebuilt when it changes.
 *
 * @internal
 */

/** Bumped whenever tokens change, so stored indexes built with older tokens are rebuilt. */
export const TOKENIZER_VERSION = 1;

/**
 * Words longer than this (64 characters) are not terms: base64 blobs, minified code and hashes
 * longer than a SHA-256 hex digest would only bloat the vocabulary. CJK runs are not affected.
 */
export const MAX_WORD_CHARACTERS = 64;

/** Options of {@link tokenize}. */
export interface TokenizeOptions {
  /** `"document"` (default) also emits CJK unigrams; `"query"` emits them only for lone characters. */
  mode?: "document" | "query";
  /** Drop English stop words. Default `true`. */
  stopWords?: boolean;
}

/**
 * Common English function words, dropped from documents and queries: they carry no topic and only
 * add noise to a word-overlap score (BM25 already gives them a tiny weight).
 */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a an and are as at be been but by can could did do does doing done for from had has have how i " +
    "if in into is it its me my of on or our so than that the their them then there these they this " +
    "those to too us was we were what when where which while who whom why will with would you your"
  ).split(" "),
);

// A word is a run of letters, digits and marks (\p{L}\p{N}\p{M}) outside the CJK scripts; a CJK run
// is a run of CJK_CHARACTER. Each code point's class comes from these two tests once, then from a
// table, so the scan reads char codes instead of running a Unicode-property regex over the text.
const CJK_CHARACTER =
  "\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}ー々〆〇";
const CJK_CHARACTER_TEST = new RegExp(`^[${CJK_CHARACTER}]$`, "u");
const WORD_CHARACTER_TEST = /^[\p{L}\p{N}\p{M}]$/u;
const MARKS = /\p{M}/gu;
const NEEDS_FOLDING = /[^ -~]/;
const NON_ASCII = /[^\0-\x7f]/;
// A non-ASCII run with the character before it: NFKC never joins anything across the start of an
// ASCII character (every one is a starter that composes with nothing before it), so normalising
// these pieces alone gives the text's NFKC form.
const NON_ASCII_PIECE = /[\0-\x7f]?[^\0-\x7f]+/g;
const ASCII_LETTERS = /^[a-z]+$/;
const CAMEL_BOUNDARY = /(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/;
const HAS_CAMEL_BOUNDARY = /[a-z0-9][A-Z]|[A-Z][A-Z][a-z]/;

/** Letters NFKD does not decompose into a base letter and a mark. */
const SPECIAL_FOLDS: Readonly<Record<string, string>> = {
  ß: "ss",
  æ: "ae",
  œ: "oe",
  ø: "o",
  ł: "l",
  đ: "d",
  ð: "d",
  þ: "th",
  ı: "i",
};
const SPECIAL_FOLD_PATTERN = /[ßæœøłđðþı]/g;

/** Classes of code points (0: not classified yet). */
const SEPARATOR = 1;
const WORD = 2;
const CJK = 3;

/** ASCII char code → 1 for a letter or digit, 0 otherwise. */
const ASCII_WORD = new Uint8Array(128);
for (let code = 0; code < 128; code += 1) {
  ASCII_WORD[code] = /[A-Za-z0-9]/.test(String.fromCharCode(code)) ? 1 : 0;
}
/** Basic-plane code point → class, filled on first sight. */
const basicPlaneClasses = new Uint8Array(0x10000);
/** Supplementary-plane code point → class (emoji, rare Han), bounded like the word cache. */
const supplementaryClasses = new Map<number, number>();

function classify(codePoint: number): number {
  const character = String.fromCodePoint(codePoint);
  if (CJK_CHARACTER_TEST.test(character)) return CJK;
  return WORD_CHARACTER_TEST.test(character) ? WORD : SEPARATOR;
}

function classOf(codePoint: number): number {
  if (codePoint < 0x10000) {
    let kind = basicPlaneClasses[codePoint] as number;
    if (kind === 0) {
      kind = classify(codePoint);
      basicPlaneClasses[codePoint] = kind;
    }
    return kind;
  }
  let kind = supplementaryClasses.get(codePoint);
  if (kind === undefined) {
    kind = classify(codePoint);
    if (supplementaryClasses.size >= TERM_CACHE_LIMIT) supplementaryClasses.clear();
    supplementaryClasses.set(codePoint, kind);
  }
  return kind;
}

/**
 * One distinct term. While the caches last, a term has exactly one record (so a document's terms
 * are counted by stamping records, without a map per field).
 */
interface TermRecord {
  readonly term: string;
  /** Records are numbered densely from 0 (see {@link TermCount.number}). */
  readonly number: number;
  /** The {@link countDocumentTerms} call that counted it last. */
  stamp: number;
  /** Its count in that call. */
  count: number;
}

/** One cached word: its terms (camelCase parts included), without and with stop words. */
interface WordEntry {
  readonly word: string;
  readonly hash: number;
  readonly terms: readonly TermRecord[];
  readonly withStopWords: readonly TermRecord[];
}

/**
 * Word → terms, memoised: words repeat (Zipf), folding and stemming do not need to. An
 * open-addressing table keyed by a hash computed during the scan, so a word seen before is found
 * without cutting it out of the text. Both caches are cleared when they grow past
 * {@link TERM_CACHE_LIMIT} entries, so memory stays bounded on any corpus.
 */
const TERM_CACHE_LIMIT = 100_000;
const WORD_TABLE_SIZE = 1 << 18;
const WORD_TABLE_MASK = WORD_TABLE_SIZE - 1;
let wordTable: Array<WordEntry | undefined> = new Array<WordEntry | undefined>(
  WORD_TABLE_SIZE,
).fill(undefined);
let wordCount = 0;
/** Term → its record. Cleared only when a scan starts (see {@link TermRecord}). */
let termRecords = new Map<string, TermRecord>();
let termNumbering = 0;
let currentStamp = 0;

function recordOf(term: string): TermRecord {
  let record = termRecords.get(term);
  if (record === undefined) {
    record = { term, number: termRecords.size, stamp: 0, count: 0 };
    termRecords.set(term, record);
  }
  return record;
}

function clearWordTable(): void {
  wordTable = new Array<WordEntry | undefined>(WORD_TABLE_SIZE).fill(undefined);
  wordCount = 0;
}

function wordEntryOf(source: string, start: number, end: number, hash: number): WordEntry {
  const length = end - start;
  let slot = hash & WORD_TABLE_MASK;
  for (;;) {
    const entry = wordTable[slot];
    if (entry === undefined) break;
    if (entry.hash === hash && entry.word.length === length) {
      const word = entry.word;
      let index = 0;
      while (index < length && word.charCodeAt(index) === source.charCodeAt(start + index)) {
        index += 1;
      }
      if (index === length) return entry;
    }
    slot = (slot + 1) & WORD_TABLE_MASK;
  }
  const entry = createWordEntry(source.slice(start, end), hash);
  if (wordCount >= TERM_CACHE_LIMIT) {
    clearWordTable();
    slot = hash & WORD_TABLE_MASK;
  }
  wordTable[slot] = entry;
  wordCount += 1;
  return entry;
}

function createWordEntry(word: string, hash: number): WordEntry {
  const terms: TermRecord[] = [];
  const withStopWords: TermRecord[] = [];
  addWordTerm(word, terms, withStopWords);
  if (HAS_CAMEL_BOUNDARY.test(word)) {
    for (const part of word.split(CAMEL_BOUNDARY)) addWordTerm(part, terms, withStopWords);
  }
  return { word, hash, terms, withStopWords };
}

function addWordTerm(word: string, terms: TermRecord[], withStopWords: TermRecord[]): void {
  const folded = foldWord(word);
  if (folded.length === 0) return;
  if (ENGLISH_STOP_WORDS.has(folded)) {
    withStopWords.push(recordOf(folded));
    return;
  }
  const record = recordOf(stemEnglish(folded));
  terms.push(record);
  withStopWords.push(record);
}

/**
 * The records of the last scan, in text order: the first {@link scannedCount} items (the array is
 * reused, never shortened, so its storage is not reallocated for every text).
 */
const scanned: TermRecord[] = [];
let scannedCount = 0;

/** Scans a text into {@link scanned}. */
function scan(text: string, query: boolean, stopWords: boolean): void {
  if (termRecords.size >= TERM_CACHE_LIMIT || wordCount >= TERM_CACHE_LIMIT) {
    // Only here: during a scan every word entry must point at the one record of its term.
    clearWordTable();
    termRecords = new Map();
    termNumbering += 1;
  }
  scannedCount = 0;
  const source = NON_ASCII.test(text)
    ? text.replace(NON_ASCII_PIECE, (piece) => piece.normalize("NFKC"))
    : text;
  const length = source.length;
  let index = 0;
  while (index < length) {
    const code = source.charCodeAt(index);
    if (code < 0x80) {
      index = ASCII_WORD[code] === 0 ? index + 1 : scanWord(source, index, stopWords);
      continue;
    }
    const codePoint = source.codePointAt(index) as number;
    const kind = classOf(codePoint);
    if (kind === WORD) index = scanWord(source, index, stopWords);
    else if (kind === CJK) index = scanCjkRun(source, index, query);
    else index += codePoint > 0xffff ? 2 : 1;
  }
}

/** Adds the terms of the word starting at `start`; returns where it ends. */
function scanWord(source: string, start: number, stopWords: boolean): number {
  const length = source.length;
  // FNV-1a over the UTF-16 code units.
  let hash = 0x811c9dc5;
  let index = start;
  while (index < length) {
    const code = source.charCodeAt(index);
    if (code < 0x80) {
      if (ASCII_WORD[code] === 0) break;
      hash = Math.imul(hash ^ code, 0x01000193);
      index += 1;
      continue;
    }
    const codePoint = source.codePointAt(index) as number;
    if (classOf(codePoint) !== WORD) break;
    hash = Math.imul(hash ^ code, 0x01000193);
    if (codePoint > 0xffff) {
      hash = Math.imul(hash ^ source.charCodeAt(index + 1), 0x01000193);
      index += 2;
    } else index += 1;
  }
  if (index - start <= MAX_WORD_CHARACTERS) {
    hash ^= hash >>> 16;
    const entry = wordEntryOf(source, start, index, hash);
    const terms = stopWords ? entry.terms : entry.withStopWords;
    for (let term = 0; term < terms.length; term += 1) {
      scanned[scannedCount] = terms[term] as TermRecord;
      scannedCount += 1;
    }
  }
  return index;
}

/** Adds the terms of the CJK run starting at `start`; returns where it ends. */
function scanCjkRun(source: string, start: number, query: boolean): number {
  const length = source.length;
  let index = start;
  while (index < length) {
    const codePoint = source.codePointAt(index) as number;
    if (classOf(codePoint) !== CJK) break;
    index += codePoint > 0xffff ? 2 : 1;
  }
  const characters = Array.from(source.slice(start, index));
  if (characters.length === 1) {
    scanned[scannedCount] = recordOf(characters[0] as string);
    scannedCount += 1;
    return index;
  }
  for (let character = 0; character + 1 < characters.length; character += 1) {
    scanned[scannedCount] = recordOf(`${characters[character]}${characters[character + 1]}`);
    scannedCount += 1;
  }
  if (query) return index;
  for (const character of characters) {
    scanned[scannedCount] = recordOf(character);
    scannedCount += 1;
  }
  return index;
}

/**
 * Splits text into search terms (see the module comment for the rules).
 *
 * @param text - any text: a chunk, a heading, front matter or a query
 * @param options - `mode` (document or query) and `stopWords`
 * @returns the terms in text order, repeated as often as they occur
 * @internal
 * @example
 * tokenize("Caching the Files in 東京都"); // ["cach", "file", "東京", "京都", "東", "京", "都"] (document mode)
 */
export function tokenize(text: string, options: TokenizeOptions = {}): string[] {
  scan(text, options.mode === "query", options.stopWords ?? true);
  const terms = new Array<string>(scannedCount);
  for (let index = 0; index < scannedCount; index += 1) {
    terms[index] = (scanned[index] as TermRecord).term;
  }
  return terms;
}

/** One distinct term of a text and how often it occurs (see {@link countDocumentTerms}). */
export interface TermCount {
  /** The term. */
  readonly term: string;
  /** How many times {@link tokenize} emits it. */
  readonly count: number;
  /**
   * A small number naming the term: two terms returned while {@link termNumberingGeneration}
   * stays the same have different numbers (a caller can keep per-term values in an array).
   */
  readonly number: number;
}

/**
 * Changes whenever the numbers of {@link TermCount.number} start over (the tokenizer's caches were
 * cleared): values kept by number are then stale.
 *
 * @returns the current generation
 * @internal
 * @example
 * const generation = termNumberingGeneration(); // compare after each countDocumentTerms call
 */
export function termNumberingGeneration(): number {
  return termNumbering;
}

const counted: TermRecord[] = [];

/**
 * The distinct terms `tokenize(text)` (document mode, stop words dropped) returns, each once with
 * its count, in the order of their first occurrence — what an index adds, without a map per text.
 * The items are reused by the next call of this function: read their counts before.
 *
 * @param text - a document field
 * @returns the distinct terms and their counts (the counts valid until the next call)
 * @internal
 * @example
 * countDocumentTerms("caches cached files"); // [{ term: "cach", count: 2 }, { term: "file", count: 1 }]
 */
export function countDocumentTerms(text: string): readonly TermCount[] {
  scan(text, false, true);
  currentStamp += 1;
  const stamp = currentStamp;
  let distinct = 0;
  for (let index = 0; index < scannedCount; index += 1) {
    const record = scanned[index] as TermRecord;
    if (record.stamp === stamp) record.count += 1;
    else {
      record.stamp = stamp;
      record.count = 1;
      counted[distinct] = record;
      distinct += 1;
    }
  }
  return counted.slice(0, distinct);
}

/**
 * Lowercases a word and folds its diacritics (`Ångström` → `angstrom`, `Straße` → `strasse`).
 *
 * @param word - one word
 * @returns the folded word (possibly empty when it was only marks)
 * @internal
 * @example
 * foldWord("Café"); // "cafe"
 */
export function foldWord(word: string): string {
  const lower = word.toLowerCase();
  if (!NEEDS_FOLDING.test(lower)) return lower;
  return lower
    .normalize("NFKD")
    .replace(MARKS, "")
    .replace(SPECIAL_FOLD_PATTERN, (letter) => SPECIAL_FOLDS[letter] ?? letter)
    .normalize("NFC");
}

const VOWELS = "aeiou";

/** Whether the letter at `index` is a consonant in Porter's sense (`y` after a consonant is a vowel). */
function isConsonant(word: string, index: number): boolean {
  const letter = word[index] as string;
  if (VOWELS.includes(letter)) return false;
  if (letter === "y") return index === 0 || !isConsonant(word, index - 1);
  return true;
}

/** Porter's measure m: the number of vowel-consonant sequences in `stem`. */
function measure(stem: string): number {
  let count = 0;
  let index = 0;
  const length = stem.length;
  while (index < length && isConsonant(stem, index)) index += 1;
  while (index < length) {
    while (index < length && !isConsonant(stem, index)) index += 1;
    if (index >= length) break;
    count += 1;
    while (index < length && isConsonant(stem, index)) index += 1;
  }
  return count;
}

function hasVowel(stem: string): boolean {
  for (let index = 0; index < stem.length; index += 1) if (!isConsonant(stem, index)) return true;
  return false;
}

function endsWithDoubleConsonant(stem: string): boolean {
  const length = stem.length;
  return length >= 2 && stem[length - 1] === stem[length - 2] && isConsonant(stem, length - 1);
}

/** Porter's *o: the stem ends consonant-vowel-consonant, the last not w, x or y. */
function endsConsonantVowelConsonant(stem: string): boolean {
  const length = stem.length;
  if (length < 3) return false;
  const last = stem[length - 1] as string;
  return (
    isConsonant(stem, length - 3) &&
    !isConsonant(stem, length - 2) &&
    isConsonant(stem, length - 1) &&
    last !== "w" &&
    last !== "x" &&
    last !== "y"
  );
}

/**
 * A light English stemmer: Porter's step 1 (plurals, `-ed`, `-ing`, final `y`) and step 5 (final
 * `e`, `-ll`), without the derivational steps 2–4 that conflate `general` and `generate`. Only
 * lowercase ASCII words of four letters or more are stemmed; others pass unchanged.
 *
 * @param word - a lowercase, folded word
 * @returns its stem
 * @internal
 * @example
 * stemEnglish("caching"); // "cach" — as are "caches", "cached" and "cache"
 */
export function stemEnglish(word: string): string {
  if (word.length < 4 || !ASCII_LETTERS.test(word)) return word;
  let stem = word;
  // Step 1a.
  if (stem.endsWith("sses")) stem = stem.slice(0, -2);
  else if (stem.endsWith("ies")) stem = stem.slice(0, -2);
  else if (stem.endsWith("ss")) {
    // unchanged
  } else if (stem.endsWith("s") && !stem.endsWith("us") && !stem.endsWith("is")) {
    stem = stem.slice(0, -1);
  }
  // Step 1b.
  let removedSuffix = false;
  if (stem.endsWith("eed")) {
    if (measure(stem.slice(0, -3)) > 0) stem = stem.slice(0, -1);
  } else if (stem.endsWith("ed") && hasVowel(stem.slice(0, -2))) {
    stem = stem.slice(0, -2);
    removedSuffix = true;
  } else if (stem.endsWith("ing") && hasVowel(stem.slice(0, -3))) {
    stem = stem.slice(0, -3);
    removedSuffix = true;
  }
  if (removedSuffix) {
    if (stem.endsWith("at") || stem.endsWith("bl") || stem.endsWith("iz")) stem = `${stem}e`;
    else if (endsWithDoubleConsonant(stem) && !/[lsz]$/.test(stem)) stem = stem.slice(0, -1);
    else if (measure(stem) === 1 && endsConsonantVowelConsonant(stem)) stem = `${stem}e`;
  }
  // Step 1c.
  if (stem.endsWith("y") && stem.length > 2 && hasVowel(stem.slice(0, -1))) {
    stem = `${stem.slice(0, -1)}i`;
  }
  // Step 5a and 5b.
  if (stem.endsWith("e")) {
    const base = stem.slice(0, -1);
    const baseMeasure = measure(base);
    if (baseMeasure > 1 || (baseMeasure === 1 && !endsConsonantVowelConsonant(base))) stem = base;
  }
  if (measure(stem) > 1 && stem.endsWith("ll")) stem = stem.slice(0, -1);
  return stem;
}
