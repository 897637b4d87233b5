import { fail, type ToolFailure } from "@agentool/contract";
import { SHELL_METACHARACTERS, splitCommandString } from "./split-command-string.js";
import { suggestArgv } from "./suggest-argv.js";

/**
 * The argv of a call: the array as sent, or one item that is a command line (a plain string
 * arrives so) split on blanks — refused when it needs a shell, with the argv array to send
 * instead when the quotes can be read. An empty command or a NUL byte is refused too.
 *
 * @param command - the `command` the model sent
 * @param toolName - the tool's name, for the messages
 * @returns the argv, or the failure
 */
export function readArgv(command: readonly string[], toolName: string): string[] | ToolFailure {
  let argv: string[];
  // One item with blanks or shell characters is a command line (a plain string arrives so).
  const only = command.length === 1 ? (command[0] ?? "") : undefined;
  const single =
    only !== undefined && (/\s/.test(only) || SHELL_METACHARACTERS.test(only)) ? only : undefined;
  if (single !== undefined) {
    const split = splitCommandString(single);
    if (split === undefined) return needsShell(single, toolName);
    argv = split;
  } else argv = [...command];
  if (argv.length === 0 || (argv[0] ?? "").length === 0) {
    return fail("INVALID_INPUT", "command is empty.", {
      hint: 'Pass the program and its arguments, e.g. ["ls", "-la"].',
    });
  }
  if (argv.some((argument) => argument.includes("\0"))) {
    return fail("INVALID_INPUT", "An argument of command contains a NUL byte.", {
      hint: "Remove the NUL byte.",
    });
  }
  return argv;
}

function needsShell(single: string, toolName: string): ToolFailure {
  const suggested = suggestArgv(single);
  const shown = JSON.stringify(single.slice(0, 200));
  return fail(
    "INVALID_INPUT",
    suggested === undefined
      ? `Invalid input for ${toolName}: command ${shown} is one string that needs a shell (pipes, redirects, &&, ;, globs, $VARIABLES or backquotes), and this tool never runs a shell.`
      : `Invalid input for ${toolName}: command ${shown} is one string with quotes or backslashes; this tool never runs a shell, so it does not split them. Send the argv array instead: command=${JSON.stringify(suggested)}.`,
    {
      hint:
        suggested === undefined
          ? 'Pass the program and its arguments as an array, e.g. ["git", "log", "-n", "5"]; run separate commands in separate calls, and do without pipes, redirects and globs (filter the output with the program\'s own flags).'
          : `Call ${toolName} again with command=${JSON.stringify(suggested)}.`,
    },
  );
}
