import { findPrivateKeys, PRIVATE_KEY_REDACTION } from "@agentool/contract";

/** A private-key END line that closes a block whose BEGIN is not in the text (a cut hunk). */
function orphanEnd(text: string, before: number): number | undefined {
  let cursor = 0;
  while (true) {
    const end = text.indexOf("-----END ", cursor);
    if (end === -1 || end >= before) return undefined;
    const close = text.indexOf("-----", end + 9);
    if (close !== -1 && close - end <= 80 && text.slice(end + 9, close).endsWith("PRIVATE KEY"))
      return end;
    cursor = end + 9;
  }
}

function lineEnd(text: string, index: number): number {
  const newline = text.indexOf("\n", index);
  return newline === -1 ? text.length : newline;
}

/**
 * Redacts private keys in one file's patch text, line for line: every line of a key block
 * (from its BEGIN line to its END line, or to the end of the file's patch) becomes
 * `<diff prefix>[private key redacted]`, so line counts, hunks and paging stay as git wrote them.
 * An END line whose BEGIN lies outside the hunks redacts everything from the first hunk to it,
 * and hunk headers lose their function context (which could quote a line of the key).
 *
 * @param patch - the patch of one file (or any text)
 * @returns the patch with key material replaced
 */
export function redactPatchKeys(patch: string): string {
  const spans = findPrivateKeys(patch);
  const firstStart = spans[0]?.start ?? patch.length;
  const orphan = orphanEnd(patch, firstStart);
  if (orphan !== undefined) {
    const hunk = patch.indexOf("\n@@");
    const start = hunk === -1 || hunk > orphan ? 0 : hunk + 1;
    const afterHunkHeader = patch.startsWith("@@", start) ? lineEnd(patch, start) + 1 : start;
    spans.unshift({ start: afterHunkHeader, end: lineEnd(patch, orphan) });
  }
  if (spans.length === 0) return patch;
  let result = "";
  let cursor = 0;
  for (const span of spans) {
    result += patch.slice(cursor, span.start);
    const block = patch.slice(span.start, span.end);
    result += block
      .split("\n")
      .map((line) => {
        const prefix = line[0] === "+" || line[0] === "-" || line[0] === " " ? line[0] : "";
        return `${prefix}${PRIVATE_KEY_REDACTION}`;
      })
      .join("\n");
    cursor = span.end;
  }
  return stripHunkContext(result + patch.slice(cursor));
}

/**
 * Drops the function context git appends to hunk headers (`@@ -1,2 +1,3 @@ <a line above>`):
 * in a file that holds a key, that line above can be a line of the key.
 */
function stripHunkContext(patch: string): string {
  return patch
    .split("\n")
    .map((line) => {
      if (!line.startsWith("@@ ")) return line;
      const close = line.indexOf(" @@", 3);
      return close === -1 ? line : line.slice(0, close + 3);
    })
    .join("\n");
}
