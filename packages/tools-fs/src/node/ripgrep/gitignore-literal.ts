/**
 * A path as a literal gitignore pattern (every glob-special character escaped).
 *
 * @param path - a path
 * @returns the pattern that matches exactly that path
 */
export function gitignoreLiteral(path: string): string {
  return path.replace(/[\\*?[\]{}!#,\s]/g, (character) => `\\${character}`);
}
