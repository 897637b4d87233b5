/** Longest line kept (a long text node is cut: read it with `read`). */
export const MAX_LINE_CHARACTERS = 500;

/**
 * Makes Playwright's accessibility snapshot (`ariaSnapshot({ mode: "ai" })`, YAML lines with
 * `[ref=eN]`) leaner for a model: unnamed `generic` wrappers are dropped and their children moved
 * up a level, `[cursor=pointer]` marks are dropped. Every element that can be acted on keeps its
 * line and ref.
 *
 * @param snapshot - the snapshot's text
 * @returns its lines, compacted
 */
export function compactSnapshot(snapshot: string): string[] {
  const out: string[] = [];
  // The indentation of each dropped wrapper still open: the lines under it move up a level each.
  const dropped: number[] = [];
  for (const raw of snapshot.split("\n")) {
    if (raw.trim().length === 0) continue;
    const indent = raw.length - raw.trimStart().length;
    while (dropped.length > 0 && (dropped[dropped.length - 1] ?? 0) >= indent) dropped.pop();
    const body = raw.trimStart().replace(/ \[cursor=pointer\]/g, "");
    if (/^- generic(?: \[[^\]]*\])*:?$/.test(body)) {
      dropped.push(indent);
      continue;
    }
    const shift = dropped.length * 2;
    const line = `${" ".repeat(Math.max(0, indent - shift))}${body}`;
    out.push(line.length > MAX_LINE_CHARACTERS ? `${line.slice(0, MAX_LINE_CHARACTERS)}…` : line);
  }
  return out;
}

/**
 * The lines of `current` not in `previous` (as a multiset), and how many of `previous` are gone.
 *
 * @param previous - the last snapshot's lines
 * @param current - this one's
 * @returns the new lines (in order) and the count of removed ones
 */
export function snapshotChanges(
  previous: readonly string[],
  current: readonly string[],
): { added: string[]; removed: number } {
  const left = new Map<string, number>();
  for (const line of previous) left.set(line, (left.get(line) ?? 0) + 1);
  const added: string[] = [];
  for (const line of current) {
    const count = left.get(line) ?? 0;
    if (count > 0) left.set(line, count - 1);
    else added.push(line);
  }
  let removed = 0;
  for (const count of left.values()) removed += count;
  return { added, removed };
}
