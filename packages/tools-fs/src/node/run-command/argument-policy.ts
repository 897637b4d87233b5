/**
 * Refusals for arguments that make an allowed program run another program (or write where the
 * model named): git's `-c`, rg's `--pre`, tar's `--to-command`, sed's `e`, find's `-exec`. These
 * checks are a convenience, not a boundary: they know the well-known flags of a few programs,
 * and a program can always have a way they do not know. The sandbox is the boundary.
 */

import { isLongOption, refuse } from "./argument-policy-support.js";
import { gitPolicy } from "./git-argument-policy.js";

/** What an argument policy says about one argv: `undefined` to let it run, or why not. */
export type ArgumentPolicyVerdict = undefined | { refused: string; reason: string };

/**
 * A host's check on the argv the model sent (argv[0] as sent, e.g. `"git"`, and the program's
 * real path). Return a verdict to refuse it (`BLOCKED`, the message naming `refused`).
 */
export type ArgumentPolicy = (argv: readonly string[], program: string) => ArgumentPolicyVerdict;

function programName(argv0: string, program: string): string {
  const name = (program || argv0).slice((program || argv0).lastIndexOf("/") + 1);
  return name.replace(/\.exe$/i, "");
}

/** tar options that are prefixes of a refused one but harmless themselves. */
const TAR_SAFE = new Set(["--checkpoint", "--to-stdout"]);

function ripgrepPolicy(args: readonly string[]): ArgumentPolicyVerdict {
  for (const argument of args) {
    if (argument === "--") break;
    if (isLongOption(argument, "--pre", false))
      return refuse("--pre", "runs a program on every file searched");
    if (isLongOption(argument, "--pre-glob", false))
      return refuse("--pre-glob", "goes with --pre, which runs a program");
    if (isLongOption(argument, "--hostname-bin", false))
      return refuse("--hostname-bin", "runs a program");
  }
  return undefined;
}

const TAR_LONG = [
  "--to-command",
  "--checkpoint-action",
  "--use-compress-program",
  "--info-script",
  "--new-volume-script",
  "--rsh-command",
  "--rmt-command",
];

function tarPolicy(args: readonly string[]): ArgumentPolicyVerdict {
  for (const [position, argument] of args.entries()) {
    if (argument === "--") break;
    if (argument.startsWith("--")) {
      for (const option of TAR_LONG) {
        if (isLongOption(argument, option, true, TAR_SAFE)) {
          return refuse(argument.split("=")[0] as string, "runs a program the model names");
        }
      }
      continue;
    }
    // Short clusters (-cIf), and the old style first argument without a dash (cIf).
    const cluster = argument.startsWith("-") ? argument.slice(1) : position === 0 ? argument : "";
    for (const letter of ["I", "F"]) {
      if (cluster.includes(letter)) return refuse(`-${letter}`, "runs a program the model names");
    }
  }
  return undefined;
}

/**
 * Whether a sed script holds a command that runs a program or touches a file the arguments do
 * not name: `e` (execute), `w`/`W` (write), `r`/`R` (read), or an `s` command with the `e` or `w`
 * flag. Reads the script the way sed does, conservatively: what it cannot read is refused.
 *
 * @returns the refused command letter, or `undefined`
 */
export function sedScriptDanger(script: string): string | undefined {
  let index = 0;
  const length = script.length;
  const skipSpace = () => {
    while (index < length && /[\s;]/.test(script[index] as string)) index += 1;
  };
  const skipAddress = () => {
    // Numbers, $, /regex/, \cregexc, ranges with , and ~ steps, and the ! negation.
    for (;;) {
      const character = script[index];
      if (character === undefined) return;
      if (/[0-9$,~+!]/.test(character) || character === " ") {
        index += 1;
      } else if (character === "/" || character === "\\") {
        const delimiter = character === "\\" ? script[index + 1] : "/";
        index += character === "\\" ? 2 : 1;
        while (index < length && script[index] !== delimiter) {
          if (script[index] === "\\") index += 1;
          index += 1;
        }
        index += 1;
        while (script[index] === "I" || script[index] === "M") index += 1;
      } else return;
    }
  };
  while (index < length) {
    skipSpace();
    if (index >= length) break;
    skipAddress();
    const command = script[index];
    if (command === undefined) break;
    index += 1;
    if (command === "{" || command === "}") continue;
    if ("ewWrR".includes(command)) return command;
    if (command === "s" || command === "y") {
      const delimiter = script[index];
      if (delimiter === undefined || delimiter === "\n" || delimiter === "\\") return command;
      index += 1;
      for (let part = 0; part < 2; part += 1) {
        while (index < length && script[index] !== delimiter) {
          if (script[index] === "\\") index += 1;
          index += 1;
        }
        if (index >= length) return command;
        index += 1;
      }
      if (command === "s") {
        while (index < length && !/[;\n}]/.test(script[index] as string)) {
          const flag = script[index] as string;
          if (flag === "e" || flag === "w" || flag === "W") return flag;
          index += 1;
        }
      }
      continue;
    }
    if ("aic".includes(command)) {
      // Text to the end of the line.
      while (index < length && script[index] !== "\n") index += 1;
      continue;
    }
    if (":btTlLqQ".includes(command)) {
      while (index < length && !/[;\n]/.test(script[index] as string)) index += 1;
      continue;
    }
    if ("=dDgGhHnNpPxzF".includes(command)) continue;
    // Anything else (GNU extensions this reader does not know): refuse rather than guess.
    return command;
  }
  return undefined;
}

function sedPolicy(args: readonly string[]): ArgumentPolicyVerdict {
  let scriptGiven = false;
  const scripts: string[] = [];
  let firstOperand: string | undefined;
  for (let index = 0; index < args.length; index += 1) {
    const argument = args[index] as string;
    if (argument === "--") {
      firstOperand ??= args[index + 1];
      break;
    }
    if (argument === "-e" || argument === "--expression") {
      scriptGiven = true;
      scripts.push(args[index + 1] ?? "");
      index += 1;
    } else if (isLongOption(argument, "--expression", true) && argument.includes("=")) {
      scriptGiven = true;
      scripts.push(argument.slice(argument.indexOf("=") + 1));
    } else if (argument === "-f" || isLongOption(argument, "--file", true)) {
      return refuse(
        argument.split("=")[0] as string,
        "reads a sed script from a file, which may run commands (e) or write files (w)",
      );
    } else if (/^-[a-zA-Z]*e./.test(argument) && !argument.startsWith("--")) {
      // -ne'script' style: the rest of the cluster after e is the script.
      scriptGiven = true;
      scripts.push(argument.slice(argument.indexOf("e") + 1));
    } else if (/^-[a-zA-Z]*e$/.test(argument)) {
      scriptGiven = true;
      scripts.push(args[index + 1] ?? "");
      index += 1;
    } else if (/^-[a-zA-Z]*f/.test(argument) && !argument.startsWith("--")) {
      return refuse(
        "-f",
        "reads a sed script from a file, which may run commands (e) or write files (w)",
      );
    } else if (!argument.startsWith("-") && firstOperand === undefined) {
      firstOperand = argument;
    }
  }
  if (!scriptGiven && firstOperand !== undefined) scripts.push(firstOperand);
  for (const script of scripts) {
    const danger = sedScriptDanger(script);
    if (danger !== undefined) {
      return refuse(
        danger,
        `the sed script ${JSON.stringify(script.slice(0, 80))} uses the ${danger} command or flag (e runs a command, w/W write a file, r/R read one)`,
      );
    }
  }
  return undefined;
}

const FIND_REFUSED = new Set([
  "-exec",
  "-execdir",
  "-ok",
  "-okdir",
  "-delete",
  "-fprint",
  "-fprint0",
  "-fprintf",
  "-fls",
]);

function findPolicy(args: readonly string[]): ArgumentPolicyVerdict {
  const refused = args.find((argument) => FIND_REFUSED.has(argument));
  return refused === undefined
    ? undefined
    : refuse(
        refused,
        refused === "-delete"
          ? "deletes files"
          : refused.startsWith("-f")
            ? "writes a file"
            : "runs a command",
      );
}

/**
 * Whether an argument names a path with a `.git` segment (any letter case), alone or as an
 * option's value (`--output=.git/hooks/x`).
 *
 * @param argument - one argument
 * @returns `true` for `.git`, `.git/hooks/pre-commit`, `sub/.GIT/config`, `--file=.git/x`
 */
export function namesGitDirectory(argument: string): boolean {
  return argument.split(/[/\\=:]/).some((segment) => segment.toLowerCase() === ".git");
}

/**
 * The shipped argument policy: any argument naming a path inside a `.git` directory; refuses the well-known program-running flags of git (`-c`,
 * `--config-env`, `--exec-path`, `-C`, `--git-dir`, `--work-tree`, `-p`, `--upload-pack`,
 * `config`, `cat-file`, `--template`, `--separate-git-dir`, `checkout-index --prefix`, …), rg (`--pre`, `--pre-glob`, `--hostname-bin`), tar (`--to-command`,
 * `--checkpoint-action`, `-I`, `--use-compress-program`, `-F`, abbreviations included), sed (`e`,
 * `w`, `r` commands and `s///e`/`s///w`, scripts from files) and find (`-exec`, `-execdir`, `-ok`,
 * `-delete`, `-fprint`, …). Not a boundary: see the README.
 *
 * @param argv - the argv as the model sent it
 * @param program - the program's real path
 * @returns why it is refused, or `undefined`
 * @example
 * defaultArgumentPolicy(["git", "-c", "alias.x=!sh", "x"], "/usr/bin/git"); // { refused: "-c", … }
 */
export function defaultArgumentPolicy(
  argv: readonly string[],
  program: string,
): ArgumentPolicyVerdict {
  const name = programName(argv[0] ?? "", program);
  const args = argv.slice(1);
  const gitPath = args.find(namesGitDirectory);
  if (gitPath !== undefined) {
    return refuse(
      gitPath,
      "names a path inside a .git directory, git's private files (hooks and config there run on the user's next git command); leave .git out of the arguments and use git's own commands",
    );
  }
  if (name === "git") return gitPolicy(args);
  if (name === "rg" || name === "ripgrep") return ripgrepPolicy(args);
  if (name === "tar" || name === "gtar" || name === "bsdtar") return tarPolicy(args);
  if (name === "sed" || name === "gsed") return sedPolicy(args);
  if (name === "find" || name === "gfind") return findPolicy(args);
  return undefined;
}
