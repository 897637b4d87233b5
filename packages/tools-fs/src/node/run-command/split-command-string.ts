/** Characters that mean something to a shell: a command string holding one is refused. */
export const SHELL_METACHARACTERS: RegExp = /[;|&$`<>(){}[\]*?~!'"\\\n\r]/;

/**
 * Splits a command string on whitespace, or explains why it cannot: shell characters mean the
 * model expects a shell, which this tool never uses.
 *
 * @param command - what the model sent
 * @returns the argv, or `undefined` when the string holds a shell metacharacter
 * @example
 * splitCommandString("git status --short"); // ["git", "status", "--short"]
 * splitCommandString("ls; rm -rf /"); // undefined
 */
export function splitCommandString(command: string): string[] | undefined {
  if (SHELL_METACHARACTERS.test(command)) return undefined;
  return command
    .trim()
    .split(/[ \t]+/)
    .filter((part) => part.length > 0);
}
