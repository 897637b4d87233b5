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

// One scan finds either a CJK run or a word. \p{L}\p{N}\p{M} excluding the CJK scripts.
const CJK_CHARACTER =
  "\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}ー々〆〇";
const TOKEN_PATTERN = new RegExp(
  `([${CJK_CHARACTER}]+)|((?:(?![${CJK_CHARACTER}])[\\p{L}\\p{N}\\p{M}])+)`,
  "gu",
);
const MARKS = /\p{M}/gu;
const NEEDS_FOLDING = /[^ -~]/;
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
  const query = options.mode === "query";
  const stopWords = options.stopWords ?? true;
  const terms: string[] = [];
  const normalized = text.normalize("NFKC");
  for (const match of normalized.matchAll(TOKEN_PATTERN)) {
    const cjk = match[1];
    if (cjk !== undefined) {
      addCjkTerms(cjk, query, terms);
      continue;
    }
    const word = match[2] as string;
    if (word.length > MAX_WORD_CHARACTERS) continue;
    addWordTerm(word, stopWords, terms);
    if (HAS_CAMEL_BOUNDARY.test(word)) {
      for (const part of word.split(CAMEL_BOUNDARY)) addWordTerm(part, stopWords, terms);
    }
  }
  return terms;
}

function addCjkTerms(run: string, query: boolean, terms: string[]): void {
  const characters = Array.from(run);
  if (characters.length === 1) {
    terms.push(characters[0] as string);
    return;
  }
  for (let index = 0; index + 1 < characters.length; index += 1) {
    terms.push(`${characters[index]}${characters[index + 1]}`);
  }
  if (!query) for (const character of characters) terms.push(character);
}

/**
 * Word → term, memoised: words repeat (Zipf), folding and stemming do not need to. A value starting
 * with NUL marks a stop word; `""` a word that folds to nothing. Cleared when it grows past
 * {@link TERM_CACHE_LIMIT} entries, so memory stays bounded on any corpus.
 */
const termCache = new Map<string, string>();
const TERM_CACHE_LIMIT = 100_000;
const STOP_MARK = "\u0000";

function addWordTerm(word: string, stopWords: boolean, terms: string[]): void {
  let term = termCache.get(word);
  if (term === undefined) {
    const folded = foldWord(word);
    term =
      folded.length === 0
        ? ""
        : ENGLISH_STOP_WORDS.has(folded)
          ? `${STOP_MARK}${folded}`
          : stemEnglish(folded);
    if (termCache.size >= TERM_CACHE_LIMIT) termCache.clear();
    termCache.set(word, term);
  }
  if (term.length === 0) return;
  if (term.charCodeAt(0) === 0) {
    if (!stopWords) terms.push(term.slice(1));
    return;
  }
  terms.push(term);
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
