/**
 * Converts `git diff` output to Codex's patch format, independently of apply_patch's parser (for
 * the real-patch test): `--- /dev/null` becomes `*** Add File:`, `+++ /dev/null` `*** Delete
 * File:`, a rename `*** Update File:` + `*** Move to:`, and every `@@ -a,b +c,d @@` hunk a bare
 * `@@` followed by its lines (Codex hunks carry no line numbers).
 *
 * @param diff - `git diff` output (text files only, every file ending with a newline)
 * @returns the same change in Codex's format
 */
export function unifiedToCodex(diff: string): string {
  const out = ["*** Begin Patch"];
  const sections = diff
    .split(/^(?=diff --git )/m)
    .filter((section) => section.startsWith("diff --git "));
  for (const section of sections) {
    const lines = section.replace(/\n$/, "").split("\n");
    const renameFrom = lines.find((line) => line.startsWith("rename from "))?.slice(12);
    const renameTo = lines.find((line) => line.startsWith("rename to "))?.slice(10);
    const minus = lines.find((line) => line.startsWith("--- "));
    const plus = lines.find((line) => line.startsWith("+++ "));
    const oldPath =
      minus === undefined
        ? renameFrom
        : minus.slice(4) === "/dev/null"
          ? undefined
          : minus.slice(6);
    const newPath =
      plus === undefined ? renameTo : plus.slice(4) === "/dev/null" ? undefined : plus.slice(6);
    const hunkStart = lines.findIndex((line) => line.startsWith("@@"));
    const body =
      hunkStart === -1 ? [] : lines.slice(hunkStart).filter((line) => !line.startsWith("\\"));
    if (oldPath === undefined && newPath !== undefined) {
      out.push(`*** Add File: ${newPath}`, ...body.filter((line) => line.startsWith("+")));
    } else if (newPath === undefined && oldPath !== undefined) {
      out.push(`*** Delete File: ${oldPath}`);
    } else if (oldPath !== undefined && newPath !== undefined) {
      out.push(`*** Update File: ${oldPath}`);
      if (newPath !== oldPath) out.push(`*** Move to: ${newPath}`);
      out.push(...body.map((line) => (line.startsWith("@@") ? "@@" : line)));
    }
  }
  out.push("*** End Patch");
  return `${out.join("\n")}\n`;
}
