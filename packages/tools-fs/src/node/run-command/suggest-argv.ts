const SHELL_OPERATOR = /[;|&$`<>(){}[\]*?~!\n\r]/;

/**
 * Reads a command string the way a shell would split it — quotes and backslashes only, nothing
 * expanded — to suggest the argv array to send instead. Never used to run anything.
 *
 * @param command - what the model sent
 * @returns the argv, or `undefined` when the string needs a shell (operators, globs, `$`, unclosed quotes)
 * @example
 * suggestArgv('git commit -m "fix the bug"'); // ["git", "commit", "-m", "fix the bug"]
 * suggestArgv("ls | wc -l"); // undefined
 */
export function suggestArgv(command: string): string[] | undefined {
  const argv: string[] = [];
  let current = "";
  let started = false;
  for (let index = 0; index < command.length; index += 1) {
    const character = command[index] as string;
    if (character === "'") {
      const close = command.indexOf("'", index + 1);
      if (close === -1) return undefined;
      current += command.slice(index + 1, close);
      started = true;
      index = close;
    } else if (character === '"') {
      let close = index + 1;
      let text = "";
      while (close < command.length && command[close] !== '"') {
        const inner = command[close] as string;
        if (inner === "$" || inner === "`") return undefined;
        if (inner === "\\" && close + 1 < command.length) {
          close += 1;
          text += command[close];
        } else text += inner;
        close += 1;
      }
      if (close >= command.length) return undefined;
      current += text;
      started = true;
      index = close;
    } else if (character === "\\") {
      if (index + 1 >= command.length) return undefined;
      index += 1;
      current += command[index];
      started = true;
    } else if (character === " " || character === "\t") {
      if (started) argv.push(current);
      current = "";
      started = false;
    } else if (SHELL_OPERATOR.test(character)) {
      return undefined;
    } else {
      current += character;
      started = true;
    }
  }
  if (started) argv.push(current);
  return argv.length === 0 ? undefined : argv;
}
