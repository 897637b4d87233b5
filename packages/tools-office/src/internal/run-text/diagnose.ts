import type { Occurrence, ScannedPart } from "./replace-in-runs.js";

/**
 * What `edit_document` tells a model whose `old_text` was not found or not unique: the
 * paragraph closest to what it asked for (and whether only typography differs — curly quotes,
 * dashes, non-breaking spaces, which documents are full of), or every occurrence with its place.
 *
 * @internal
 */

/** Longest paragraph excerpt shown in a message. */
export const MAX_EXCERPT_CHARACTERS = 240;

/** Most occurrences an ambiguity refusal lists. */
export const MAX_LISTED_OCCURRENCES = 20;

/**
 * Folds the characters word processors substitute (curly quotes, dashes, special spaces,
 * ellipsis) to the ones a model types, one character for one.
 *
 * @param text - any text
 * @returns the folded text, same length
 */
export function foldTypography(text: string): string {
  return text
    .replace(/[\u2018\u2019\u201a\u201b\u2032]/g, "'")
    .replace(/[\u201c\u201d\u201e\u201f\u2033]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, "-")
    .replace(/[\u00a0\u2007\u202f\t]/g, " ");
}

/**
 * A paragraph's place as a model reads it: `body paragraph 3`, `slide 2 paragraph 1`.
 *
 * @param part - the part
 * @param paragraph - the paragraph index (0-based)
 * @returns the label
 */
export function placeOf(part: ScannedPart, paragraph: number): string {
  return `${part.label} paragraph ${paragraph + 1}`;
}

/**
 * A paragraph's text cut to the excerpt length around a position.
 *
 * @param text - the paragraph's text
 * @param around - the position to keep in view
 * @returns the excerpt, with `…` where cut
 */
export function excerpt(text: string, around = 0): string {
  if (text.length <= MAX_EXCERPT_CHARACTERS) return text;
  const start = Math.max(0, Math.min(around - 60, text.length - MAX_EXCERPT_CHARACTERS));
  const end = start + MAX_EXCERPT_CHARACTERS;
  return `${start > 0 ? "…" : ""}${text.slice(start, end)}${end < text.length ? "…" : ""}`;
}

function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * The message parts for an `old_text` that occurs nowhere.
 *
 * @param parts - the scanned parts
 * @param oldText - what was asked for
 * @returns the error message's tail and a hint
 */
export function diagnoseMissing(
  parts: readonly ScannedPart[],
  oldText: string,
): { detail: string; hint: string } {
  const folded = foldTypography(oldText);
  for (const part of parts) {
    for (const [index, paragraph] of part.paragraphs.entries()) {
      const at = foldTypography(paragraph.text).indexOf(folded);
      if (at !== -1) {
        const actual = paragraph.text.slice(at, at + oldText.length);
        return {
          detail: ` ${placeOf(part, index)} has it with different typography (quotes, dashes or spaces): ${JSON.stringify(actual)}.`,
          hint: "Copy old_text exactly as the document has it (the characters above), then call again.",
        };
      }
    }
  }
  const wanted = [...new Set(words(oldText))];
  let best: { part: ScannedPart; index: number; score: number } | undefined;
  for (const part of parts) {
    for (const [index, paragraph] of part.paragraphs.entries()) {
      if (wanted.length === 0 || paragraph.text.trim().length === 0) continue;
      const present = new Set(words(paragraph.text));
      const score = wanted.filter((word) => present.has(word)).length / wanted.length;
      if (score > (best?.score ?? 0.25)) best = { part, index, score };
    }
  }
  const spans = oldText.includes("\n")
    ? " old_text never spans two paragraphs (a line break inside one is \\n)."
    : "";
  if (best === undefined) {
    return {
      detail: `${spans} No paragraph shares its words.`,
      hint: "Read the document first and copy old_text from it (within one paragraph).",
    };
  }
  const text = best.part.paragraphs[best.index]?.text ?? "";
  return {
    detail: `${spans} The closest paragraph is ${placeOf(best.part, best.index)}: ${JSON.stringify(excerpt(text))}.`,
    hint: "Copy old_text exactly from the document's text (within one paragraph), then call again.",
  };
}

/**
 * The list of occurrences for an ambiguity refusal.
 *
 * @param occurrences - every occurrence
 * @returns one line per occurrence (up to {@link MAX_LISTED_OCCURRENCES}), with its place
 */
export function listOccurrences(occurrences: readonly Occurrence[]): string {
  const listed = occurrences.slice(0, MAX_LISTED_OCCURRENCES).map((occurrence) => {
    const text = occurrence.part.paragraphs[occurrence.paragraph]?.text ?? "";
    return `${placeOf(occurrence.part, occurrence.paragraph)}: ${JSON.stringify(excerpt(text, occurrence.start))}`;
  });
  const more = occurrences.length - listed.length;
  return `${listed.join("; ")}${more > 0 ? `; and ${more} more` : ""}`;
}
