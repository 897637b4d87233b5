import { describe, expect, test } from "vitest";
import {
  countDocumentTermNumbers,
  countDocumentTerms,
  countedTermNumber,
  ENGLISH_STOP_WORDS,
  foldWord,
  MAX_WORD_CHARACTERS,
  stemEnglish,
  type TokenizeOptions,
  termCountOf,
  termOfNumber,
  tokenize,
} from "./tokenize.js";

describe("stemEnglish", () => {
  test.each([
    ["caresses", "caress"],
    ["ponies", "poni"],
    ["cats", "cat"],
    ["feed", "feed"],
    ["agreed", "agre"],
    ["plastered", "plaster"],
    ["motoring", "motor"],
    ["conflated", "conflat"],
    ["hopping", "hop"],
    ["falling", "fall"],
    ["filing", "file"],
    ["happy", "happi"],
    ["status", "status"],
    ["analysis", "analysis"],
  ])("%s → %s", (word, stem) => {
    expect(stemEnglish(word)).toBe(stem);
  });

  test("inflections of one word meet on one stem", () => {
    const groups = [
      ["cache", "caches", "cached", "caching"],
      ["query", "queries", "queried"],
      ["index", "indexes", "indexed", "indexing"],
      ["configure", "configured", "configures", "configuring"],
      ["run", "running", "runs"],
      ["token", "tokens"],
      ["status", "statuses"],
    ];
    for (const group of groups) {
      expect(new Set(group.map(stemEnglish)).size, group.join(", ")).toBe(1);
    }
  });

  test("keeps apart what derivational stemming would conflate; short, non-ASCII and digit words pass unchanged", () => {
    expect(stemEnglish("general")).not.toBe(stemEnglish("generate"));
    expect(stemEnglish("string")).toBe("string");
    expect(stemEnglish("gas")).toBe("gas");
    expect(stemEnglish("http2s")).toBe("http2s");
    expect(stemEnglish("naïves")).toBe("naïves");
  });
});

describe("foldWord", () => {
  test("lowercases and folds diacritics and special letters", () => {
    expect(foldWord("Café")).toBe("cafe");
    expect(foldWord("ÅNGSTRÖM")).toBe("angstrom");
    expect(foldWord("Straße")).toBe("strasse");
    expect(foldWord("Łódź")).toBe("lodz");
    expect(foldWord("Ærø")).toBe("aero");
    expect(foldWord("plain")).toBe("plain");
  });
});

describe("tokenize", () => {
  test("English: lowercased, stemmed, stop words dropped, punctuation splits words", () => {
    expect(tokenize("How do I configure the Caching of HTTP responses?")).toEqual([
      "configur",
      "cach",
      "http",
      "respons",
    ]);
    expect(tokenize("the cat", { stopWords: false })).toEqual(["the", "cat"]);
    expect(tokenize("")).toEqual([]);
    expect(tokenize("   --- !!! ")).toEqual([]);
    for (const word of ENGLISH_STOP_WORDS) expect(tokenize(word)).toEqual([]);
  });

  test("identifiers: camelCase whole and in parts, snake_case and kebab-case split, numbers kept", () => {
    expect(tokenize("createLexicalIndex")).toEqual([
      "createlexicalindex",
      "creat",
      "lexical",
      "index",
    ]);
    expect(tokenize("HTTPServer")).toEqual(["httpserver", "http", "server"]);
    expect(tokenize("max_chunk_characters")).toEqual(["max", "chunk", "character"]);
    expect(tokenize("read-file v1.2")).toEqual(["read", "file", "v1", "2"]);
  });

  test("diacritics fold and full-width forms normalise, so spellings meet", () => {
    expect(tokenize("café résumé")).toEqual(tokenize("cafe resume"));
    expect(tokenize("ＡＰＩ")).toEqual(["api"]);
    expect(tokenize("e\u0301te\u0301")).toEqual(tokenize("été"));
  });

  test("CJK runs become bigrams; documents also index single characters, queries only alone", () => {
    expect(tokenize("東京都")).toEqual(["東京", "京都", "東", "京", "都"]);
    expect(tokenize("東京都", { mode: "query" })).toEqual(["東京", "京都"]);
    expect(tokenize("猫", { mode: "query" })).toEqual(["猫"]);
    expect(tokenize("서울은 맑습니다", { mode: "query" })).toEqual([
      "서울",
      "울은",
      "맑습",
      "습니",
      "니다",
    ]);
    expect(tokenize("データベース", { mode: "query" })).toEqual([
      "デー",
      "ータ",
      "タベ",
      "ベー",
      "ース",
    ]);
  });

  test("mixed scripts split at the script boundary", () => {
    expect(tokenize("Docker容器网络", { mode: "query" })).toEqual([
      "docker",
      "容器",
      "器网",
      "网络",
    ]);
    expect(tokenize("使用Git分支", { mode: "query" })).toEqual(["使用", "git", "分支"]);
  });

  test("supplementary-plane Han characters form bigrams by code point", () => {
    expect(tokenize("𠀀𠀁", { mode: "query" })).toEqual(["𠀀𠀁"]);
  });
});

describe("tokenize — hostile input", () => {
  test("words longer than 64 characters are not terms (base64, minified code), shorter ones are", () => {
    expect(tokenize(`before ${"aB".repeat(500_000)} after`)).toEqual(["befor", "after"]);
    expect(tokenize("y".repeat(1_000_000))).toEqual([]);
    expect(tokenize("a".repeat(MAX_WORD_CHARACTERS))).toEqual(["a".repeat(MAX_WORD_CHARACTERS)]);
    const sha256 = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
    expect(tokenize(sha256)).toEqual([sha256]);
  });
});

// The tokenizer before the char-code scan (a Unicode-property regex over the NFKC text, a word →
// term cache), kept as the reference the scan must equal. The stemmer is the module's own: it did
// not change.
const REFERENCE_CJK =
  "\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}ー々〆〇";
const REFERENCE_PATTERN = new RegExp(
  `([${REFERENCE_CJK}]+)|((?:(?![${REFERENCE_CJK}])[\\p{L}\\p{N}\\p{M}])+)`,
  "gu",
);
const REFERENCE_CAMEL_BOUNDARY = /(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/;
const REFERENCE_HAS_CAMEL_BOUNDARY = /[a-z0-9][A-Z]|[A-Z][A-Z][a-z]/;
const REFERENCE_FOLDS: Record<string, string> = {
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

function referenceFold(word: string): string {
  const lower = word.toLowerCase();
  if (!/[^ -~]/.test(lower)) return lower;
  return lower
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .replace(/[ßæœøłđðþı]/g, (letter) => REFERENCE_FOLDS[letter] ?? letter)
    .normalize("NFC");
}

function referenceWordTerm(word: string, stopWords: boolean, terms: string[]): void {
  const folded = referenceFold(word);
  if (folded.length === 0) return;
  if (ENGLISH_STOP_WORDS.has(folded)) {
    if (!stopWords) terms.push(folded);
    return;
  }
  terms.push(stemEnglish(folded));
}

function referenceTokenize(
  text: string,
  options: { mode?: "document" | "query"; stopWords?: boolean } = {},
): string[] {
  const query = options.mode === "query";
  const stopWords = options.stopWords ?? true;
  const terms: string[] = [];
  for (const match of text.normalize("NFKC").matchAll(REFERENCE_PATTERN)) {
    const cjk = match[1];
    if (cjk !== undefined) {
      const characters = Array.from(cjk);
      if (characters.length === 1) {
        terms.push(characters[0] as string);
        continue;
      }
      for (let index = 0; index + 1 < characters.length; index += 1) {
        terms.push(`${characters[index]}${characters[index + 1]}`);
      }
      if (!query) terms.push(...characters);
      continue;
    }
    const word = match[2] as string;
    if (word.length > MAX_WORD_CHARACTERS) continue;
    referenceWordTerm(word, stopWords, terms);
    if (REFERENCE_HAS_CAMEL_BOUNDARY.test(word)) {
      for (const part of word.split(REFERENCE_CAMEL_BOUNDARY)) {
        referenceWordTerm(part, stopWords, terms);
      }
    }
  }
  return terms;
}

/** The distinct terms of a token list with their counts, in the order of first occurrence. */
function referenceCounts(terms: readonly string[]): Array<{ term: string; count: number }> {
  const counts = new Map<string, number>();
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  return [...counts].map(([term, count]) => ({ term, count }));
}

/** {@link countDocumentTerms}, copied out of its reused records. */
function countsOf(text: string): Array<{ term: string; count: number }> {
  return countDocumentTerms(text).map(({ term, count }) => ({ term, count }));
}

/** A small deterministic generator (mulberry32), so a failure names a reproducible seed. */
function randomSource(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

// Pieces random strings are made of: ASCII (words, stop words, inflections, camelCase, digits,
// punctuation, separators), Latin-1 (letters, ª º ² µ ½ ¼ whose NFKC form differs), combining
// marks (alone, after ASCII and after CJK; U+0338 composes with `<` `=` `>`), fullwidth and
// halfwidth forms, ligatures and other compatibility characters, CJK (Han, kana, Hangul syllables
// and conjoining jamo, ー々〆〇, a supplementary-plane Han), other scripts, emoji (with ZWJ and
// variation selectors), lone surrogates and control characters.
const PIECES: readonly string[] = [
  ..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
  ..." \t\n.,;:!?-_/\\()[]{}<>=+*&^%$#@~`'\"|",
  "the",
  "of",
  "The",
  "thes",
  "caching",
  "Queries",
  "indexed",
  "createLexicalIndex",
  "HTTPServer",
  "max_chunk_characters",
  "read-file",
  "v1.2",
  "a".repeat(MAX_WORD_CHARACTERS),
  "B".repeat(MAX_WORD_CHARACTERS + 1),
  ..."éèêëàáâäãåçñöøœæßðþÿÉÀÇÑÖØÆŒªº²³¹µ½¼¾×÷¡¿«»°±§¶·´¨¸",
  ..."\u0301\u0300\u0308\u0327\u0338\u0323\u0302\u20dd\u200d\ufe0f\u00ad",
  "e\u0301",
  "<\u0338",
  "A\u030a",
  "ＡＢＣａｂｃ０１２＿－！？　ｶﾀｶﾅﾞﾟ",
  ..."ＡａＺ９＿－ｶﾞﾟ　",
  ..."ﬁﬂﬀ①⑳Ⅻⅻ™℃㎏㍻ſİıςΣ",
  ..."東京都漢字日本語中文网络容器分支使用",
  ..."ひらがなカタカナデータベースー々〆〇",
  ..."서울은맑습니다한국어",
  "\u1100\u1161\u11a8",
  "\u1112\u1161\u11ab",
  "𠀀",
  "𠀁",
  "𪚥",
  ..."αβγΔΩπжЖщЯعربيةहिन्दीก्",
  "😀",
  "👍🏽",
  "👨\u200d👩\u200d👧",
  "❤\ufe0f",
  "1\ufe0f\u20e3",
  "\ud800",
  "\udc00",
  "\u0000",
  "\u007f",
  "\u0085",
  "\u2028",
];

function randomText(random: () => number): string {
  const count = Math.floor(random() * 40);
  let text = "";
  for (let index = 0; index < count; index += 1) {
    text += PIECES[Math.floor(random() * PIECES.length)] as string;
  }
  return text;
}

/** Texts (with options) on which tokenize or countDocumentTerms differs from the reference. */
function differences(
  texts: Iterable<string>,
  optionSets: readonly TokenizeOptions[] = [
    {},
    { mode: "query" },
    { stopWords: false },
    { mode: "query", stopWords: false },
  ],
): string[] {
  const found: string[] = [];
  for (const text of texts) {
    for (const options of optionSets) {
      const actual = tokenize(text, options);
      const expected = referenceTokenize(text, options);
      if (JSON.stringify(actual) !== JSON.stringify(expected)) {
        found.push(`${JSON.stringify(text)} ${JSON.stringify(options)}: ${JSON.stringify(actual)}`);
      }
    }
    const counts = JSON.stringify(countsOf(text));
    if (counts !== JSON.stringify(referenceCounts(referenceTokenize(text)))) {
      found.push(`${JSON.stringify(text)} counted: ${counts}`);
    }
    if (found.length >= 10) break;
  }
  return found;
}

describe("tokenize — equal to the reference implementation", () => {
  test("random strings mixing ASCII, Latin-1, CJK, combining marks, fullwidth forms, digits, punctuation and emoji", () => {
    const random = randomSource(0x70_6b_e1);
    const texts = Array.from({ length: 5_000 }, () => randomText(random));
    expect(texts.filter((text) => /[^\0-\x7f]/.test(text)).length).toBeGreaterThan(4_000);
    expect(differences(texts)).toEqual([]);
  });

  test("every basic-plane code point, alone and between letters", () => {
    const texts: string[] = [];
    for (let code = 0; code < 0x10000; code += 1) {
      const character = String.fromCharCode(code);
      texts.push(character, `a${character}b 東${character}x`);
    }
    expect(differences(texts, [{}, { mode: "query" }])).toEqual([]);
  }, 60_000);

  test("past the cache limit, within one text and across texts", () => {
    // 120,000 distinct words: the word cache fills and is cleared in the middle of the text.
    const words = Array.from({ length: 120_000 }, (_, index) => `x${index}`);
    const text = words.join(" ");
    const tokens = tokenize(text);
    expect(tokens.length).toBe(120_000);
    expect(tokens.join(" ")).toBe(referenceTokenize(text).join(" "));
    const doubled = `${text} ${text}`;
    const counts = countsOf(doubled);
    expect(counts.length).toBe(120_000);
    expect(counts.map(({ term, count }) => `${term}:${count}`).join(" ")).toBe(
      referenceCounts(referenceTokenize(doubled))
        .map(({ term, count }) => `${term}:${count}`)
        .join(" "),
    );
    expect(tokenize("caching the HTTPServer")).toEqual(["cach", "httpserver", "http", "server"]);
  }, 60_000);
});

describe("countDocumentTerms", () => {
  test("the distinct document-mode terms with their counts, in the order of first occurrence", () => {
    expect(countsOf("Caches cached the files; FILE 東京 東")).toEqual([
      { term: "cach", count: 2 },
      { term: "file", count: 2 },
      { term: "東京", count: 1 },
      { term: "東", count: 2 },
      { term: "京", count: 1 },
    ]);
    expect(countsOf("")).toEqual([]);
    expect(countsOf("the of and")).toEqual([]);
  });
});

describe("the word cache's keys", () => {
  test("words that differ in one character at every position, around the packed length, stay apart", () => {
    const texts: string[] = [];
    for (let length = 1; length <= 13; length += 1) {
      const base = "q".repeat(length);
      const words = [base];
      for (let position = 0; position < length; position += 1) {
        for (const letter of ["z", "Z", "9", "0", "A", "a"])
          words.push(`${base.slice(0, position)}${letter}${base.slice(position + 1)}`);
      }
      texts.push(words.join(" "), [...words].reverse().join(" "));
    }
    expect(differences(texts)).toEqual([]);
    // Each distinct lowercase spelling is its own term: nothing merged by a shared key (from two
    // characters on: the one-letter "a" is a stop word; capitals would add camelCase parts).
    for (const spellings of texts.slice(2)) {
      const lowercase = spellings.split(" ").filter((word) => !/[A-Z]/.test(word));
      expect(new Set(tokenize(lowercase.join(" "))).size).toBe(new Set(lowercase).size);
    }
  });

  test("countDocumentTermNumbers agrees with countDocumentTerms", () => {
    const text = "Caches cached the files; FILE 東京 東 createLexicalIndex HTTPServer éclair";
    const distinct = countDocumentTermNumbers(text);
    const read = Array.from({ length: distinct }, (_, index) => {
      const number = countedTermNumber(index);
      return { term: termOfNumber(number), count: termCountOf(number) };
    });
    expect(read).toEqual(countsOf(text));
    expect(read.length).toBeGreaterThan(5);
  });
});
