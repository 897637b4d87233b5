import { describe, expect, test } from "vitest";
import {
  ENGLISH_STOP_WORDS,
  foldWord,
  MAX_WORD_CHARACTERS,
  stemEnglish,
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
