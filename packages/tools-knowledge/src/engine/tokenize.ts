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
 * Terms are numbered densely from 0 in the order they are first seen; while the caches last, a
 * term keeps its number (so a document's terms are counted by stamping numbers, in typed arrays,
 * without a map per field). Cleared only when a scan starts (see {@link scan}).
 */
let termStrings: string[] = [];
let termNumbers = new Map<string, number>();
/** By term number: the {@link countDocumentTermNumbers} call that counted it last. */
let termStamps = new Int32Array(1024);
/** By term number: its count in that call. */
let termCounts = new Int32Array(1024);
let termNumbering = 0;
let currentStamp = 0;

function termNumberOf(term: string): number {
  let number = termNumbers.get(term);
  if (number === undefined) {
    number = termStrings.length;
    termStrings.push(term);
    termNumbers.set(term, number);
    if (number >= termStamps.length) {
      const stamps = new Int32Array(termStamps.length * 2);
      stamps.set(termStamps);
      termStamps = stamps;
      const counts = new Int32Array(termCounts.length * 2);
      counts.set(termCounts);
      termCounts = counts;
    }
  }
  return number;
}

/**
 * Word → terms, memoised: words repeat (Zipf), folding and stemming do not need to. An
 * open-addressing table in one `Int32Array`, four slots a word, probed with a hash computed during
 * the scan, so a word seen before is found without cutting it out of the text and without
 * touching a heap object:
 * - a short ASCII word (at most {@link PACKED_CHARACTERS} letters and digits) is its own key: six
 *   bits a character in two integers (`key0`, `key1`) and its length — equal keys are equal words;
 * - any other word is keyed by its FNV-1a hash (`key0`) and its index in {@link longWords}
 *   (`key1`), whose characters are compared.
 *
 * The slot's `meta` is `length << 1 | long` (0: empty); its `value` is the word's one term as
 * `number << 1 | stop word` when it has exactly one, else `-1 - index` of its list in
 * {@link wordTermLists}. The table is cleared when it holds {@link TERM_CACHE_LIMIT} words, so memory
 * stays bounded on any corpus.
 */
const TERM_CACHE_LIMIT = 100_000;
const WORD_TABLE_SIZE = 1 << 18;
const WORD_TABLE_MASK = WORD_TABLE_SIZE - 1;
/** Characters of a word packed into its key (five per integer). */
const PACKED_CHARACTERS = 10;
const wordTable = new Int32Array(WORD_TABLE_SIZE * 4);
let wordCount = 0;
/** The words keyed by hash, by index. */
let longWords: string[] = [];
/** The term lists of words with none or several terms (each item `number << 1 | stop word`). */
let wordTermLists: number[][] = [];

/** ASCII char code → 1 … 62 for a letter or digit (its six-bit code in a packed key), 0 otherwise. */
const ASCII_CODE = new Uint8Array(128);
{
  let next = 1;
  for (let code = 0; code < 128; code += 1) {
    if (/[A-Za-z0-9]/.test(String.fromCharCode(code))) {
      ASCII_CODE[code] = next;
      next += 1;
    }
  }
}

function clearWordTable(): void {
  wordTable.fill(0);
  wordCount = 0;
  longWords = [];
  wordTermLists = [];
}

/** The `value` of a new word (see {@link wordTable}): its terms, folded and stemmed. */
function valueOfNewWord(word: string): number {
  const terms: number[] = [];
  addWordTerm(word, terms);
  if (HAS_CAMEL_BOUNDARY.test(word)) {
    for (const part of word.split(CAMEL_BOUNDARY)) addWordTerm(part, terms);
  }
  if (terms.length === 1) return terms[0] as number;
  wordTermLists.push(terms);
  return -wordTermLists.length;
}

function addWordTerm(word: string, terms: number[]): void {
  const folded = foldWord(word);
  if (folded.length === 0) return;
  if (ENGLISH_STOP_WORDS.has(folded)) terms.push((termNumberOf(folded) << 1) | 1);
  else terms.push(termNumberOf(stemEnglish(folded)) << 1);
}

/**
 * Stores a new word in the free slot `slot` (or, after a clear, wherever its hash lands). A long
 * word's `key1` is its index in {@link longWords}, assigned here (the caller passes 0).
 */
function insertWord(
  slot: number,
  hash: number,
  key0: number,
  key1: number,
  meta: number,
  word: string,
): number {
  let at = slot;
  if (wordCount >= TERM_CACHE_LIMIT) {
    clearWordTable();
    at = hash & WORD_TABLE_MASK;
  }
  let storedKey1 = key1;
  if (meta & 1) {
    storedKey1 = longWords.length;
    longWords.push(word);
  }
  // After any clear: a word with several terms gets its list among the new table's lists.
  const value = valueOfNewWord(word);
  const base = at * 4;
  wordTable[base] = key0;
  wordTable[base + 1] = storedKey1;
  wordTable[base + 2] = meta;
  wordTable[base + 3] = value;
  wordCount += 1;
  return value;
}

/** The value of a short ASCII word, packed as `low`, `high`. */
function valueOfPackedWord(
  source: string,
  start: number,
  end: number,
  low: number,
  high: number,
): number {
  const meta = (end - start) << 1;
  let hash = Math.imul(low ^ Math.imul(high ^ meta, 0x9e3779b1), 0x85ebca6b);
  hash ^= hash >>> 15;
  let slot = hash & WORD_TABLE_MASK;
  for (;;) {
    const base = slot * 4;
    const stored = wordTable[base + 2] as number;
    if (stored === 0) break;
    if (stored === meta && wordTable[base] === low && wordTable[base + 1] === high)
      return wordTable[base + 3] as number;
    slot = (slot + 1) & WORD_TABLE_MASK;
  }
  return insertWord(slot, hash, low, high, meta, source.slice(start, end));
}

/** The value of any other word: keyed by its FNV-1a hash, its characters compared. */
function valueOfLongWord(source: string, start: number, end: number): number {
  // FNV-1a over the UTF-16 code units.
  let hash = 0x811c9dc5;
  for (let index = start; index < end; index += 1)
    hash = Math.imul(hash ^ source.charCodeAt(index), 0x01000193);
  hash ^= hash >>> 16;
  const length = end - start;
  const meta = (length << 1) | 1;
  let slot = hash & WORD_TABLE_MASK;
  for (;;) {
    const base = slot * 4;
    const stored = wordTable[base + 2] as number;
    if (stored === 0) break;
    if (stored === meta && wordTable[base] === hash) {
      const word = longWords[wordTable[base + 1] as number] as string;
      let index = 0;
      while (index < length && word.charCodeAt(index) === source.charCodeAt(start + index)) {
        index += 1;
      }
      if (index === length) return wordTable[base + 3] as number;
    }
    slot = (slot + 1) & WORD_TABLE_MASK;
  }
  return insertWord(slot, hash, hash, 0, meta, source.slice(start, end));
}

/**
 * The term numbers of the last scan, in text order: the first {@link scannedCount} items (the
 * array is reused, so its storage is not reallocated for every text).
 */
let scanned = new Int32Array(4096);
let scannedCount = 0;

function emit(number: number): void {
  if (scannedCount === scanned.length) {
    const grown = new Int32Array(scanned.length * 2);
    grown.set(scanned);
    scanned = grown;
  }
  scanned[scannedCount] = number;
  scannedCount += 1;
}

/** Scans a text into {@link scanned}. */
function scan(text: string, query: boolean, stopWords: boolean): void {
  if (termStrings.length >= TERM_CACHE_LIMIT || wordCount >= TERM_CACHE_LIMIT) {
    // Only here: during a scan every word's value must name the one number of each term.
    clearWordTable();
    termStrings = [];
    termNumbers = new Map();
    termStamps = new Int32Array(1024);
    termCounts = new Int32Array(1024);
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
      index = ASCII_CODE[code] === 0 ? index + 1 : scanWord(source, index, stopWords);
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
  let low = 0;
  let high = 0;
  let packed = true;
  let index = start;
  while (index < length) {
    const code = source.charCodeAt(index);
    if (code < 0x80) {
      const sixBits = ASCII_CODE[code] as number;
      if (sixBits === 0) break;
      const position = index - start;
      if (position < 5) low = (low << 6) | sixBits;
      else if (position < PACKED_CHARACTERS) high = (high << 6) | sixBits;
      else packed = false;
      index += 1;
      continue;
    }
    const codePoint = source.codePointAt(index) as number;
    if (classOf(codePoint) !== WORD) break;
    packed = false;
    index += codePoint > 0xffff ? 2 : 1;
  }
  if (index - start <= MAX_WORD_CHARACTERS) {
    const value = packed
      ? valueOfPackedWord(source, start, index, low, high)
      : valueOfLongWord(source, start, index);
    if (value >= 0) {
      if (!stopWords || (value & 1) === 0) emit(value >>> 1);
    } else {
      const terms = wordTermLists[-1 - value] as number[];
      for (let term = 0; term < terms.length; term += 1) {
        const item = terms[term] as number;
        if (!stopWords || (item & 1) === 0) emit(item >>> 1);
      }
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
    emit(termNumberOf(characters[0] as string));
    return index;
  }
  for (let character = 0; character + 1 < characters.length; character += 1) {
    emit(termNumberOf(`${characters[character]}${characters[character + 1]}`));
  }
  if (query) return index;
  for (const character of characters) emit(termNumberOf(character));
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
    terms[index] = termStrings[scanned[index] as number] as string;
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

/** The distinct term numbers of the last {@link countDocumentTermNumbers} call, in order. */
let counted = new Int32Array(1024);

/**
 * {@link countDocumentTerms} without objects: counts the distinct terms of `text` and returns how
 * many there are; {@link countedTermNumber}, {@link termCountOf} and {@link termOfNumber} read
 * them (valid until the next call). What an index's build loop uses.
 *
 * @param text - a document field
 * @returns the number of distinct terms
 * @internal
 * @example
 * const distinct = countDocumentTermNumbers("caches cached files"); // 2
 * termOfNumber(countedTermNumber(0)); // "cach"; termCountOf(countedTermNumber(0)) === 2
 */
export function countDocumentTermNumbers(text: string): number {
  scan(text, false, true);
  if (currentStamp >= 0x3fffffff) {
    termStamps.fill(0);
    currentStamp = 0;
  }
  currentStamp += 1;
  const stamp = currentStamp;
  if (counted.length < scannedCount)
    counted = new Int32Array(Math.max(scannedCount, counted.length * 2));
  let distinct = 0;
  for (let index = 0; index < scannedCount; index += 1) {
    const number = scanned[index] as number;
    if (termStamps[number] === stamp) termCounts[number] = (termCounts[number] as number) + 1;
    else {
      termStamps[number] = stamp;
      termCounts[number] = 1;
      counted[distinct] = number;
      distinct += 1;
    }
  }
  return distinct;
}

/**
 * @param index - 0 … the last {@link countDocumentTermNumbers} result − 1
 * @returns the number of that call's `index`-th distinct term
 * @internal
 * @example
 * countedTermNumber(0);
 */
export function countedTermNumber(index: number): number {
  return counted[index] as number;
}

/**
 * @param number - a term number the last {@link countDocumentTermNumbers} call returned
 * @returns how often the term occurs in that call's text
 * @internal
 * @example
 * termCountOf(countedTermNumber(0));
 */
export function termCountOf(number: number): number {
  return termCounts[number] as number;
}

/**
 * @param number - a term number (valid while {@link termNumberingGeneration} stays the same)
 * @returns the term
 * @internal
 * @example
 * termOfNumber(countedTermNumber(0)); // "cach"
 */
export function termOfNumber(number: number): string {
  return termStrings[number] as string;
}

/**
 * The distinct terms `tokenize(text)` (document mode, stop words dropped) returns, each once with
 * its count, in the order of their first occurrence — what an index adds.
 *
 * @param text - a document field
 * @returns the distinct terms and their counts
 * @internal
 * @example
 * countDocumentTerms("caches cached files"); // [{ term: "cach", count: 2 }, { term: "file", count: 1 }]
 */
export function countDocumentTerms(text: string): readonly TermCount[] {
  const distinct = countDocumentTermNumbers(text);
  const terms: TermCount[] = [];
  for (let index = 0; index < distinct; index += 1) {
    const number = counted[index] as number;
    terms.push({
      term: termStrings[number] as string,
      count: termCounts[number] as number,
      number,
    });
  }
  return terms;
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
