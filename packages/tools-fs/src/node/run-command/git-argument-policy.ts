import type { ArgumentPolicyVerdict } from "./argument-policy.js";
import { isLongOption, refuse } from "./argument-policy-support.js";

/**
 * git subcommand options that write git's control files (hooks, config) from files the model
 * wrote: `init`/`clone --template` copies a directory's hooks into `.git/hooks`,
 * `--separate-git-dir` moves the repository where the sandbox does not guard it.
 */
const GIT_CONTROL_OPTIONS: Readonly<Record<string, string>> = {
  "--template":
    "copies a template directory, hooks included, into the repository's .git (the user's git would run them)",
  "--separate-git-dir":
    "moves the repository's git directory to a path the model names, outside the guard on .git",
};

/** The refusal of an option that writes git's control files, or `undefined`. */
function controlOptionRefusal(subcommand: string, argument: string): ArgumentPolicyVerdict {
  for (const [option, why] of Object.entries(GIT_CONTROL_OPTIONS)) {
    if (isLongOption(argument, option, true)) return refuse(option, why);
  }
  if (subcommand === "checkout-index" && isLongOption(argument, "--prefix", true)) {
    return refuse(
      "--prefix",
      "writes checked-out files under a prefix the model names, .git/hooks/ included",
    );
  }
  return undefined;
}

const GIT_GLOBAL_WITH_VALUE = new Set([
  "--namespace",
  "--super-prefix",
  "--list-cmds",
  "--attr-source",
]);

/** git subcommands that run a program the model names, or rewrite git's config. */
const GIT_SUBCOMMANDS: Readonly<Record<string, string>> = {
  config: "writes git config, which can name programs git runs (aliases, pagers, diff drivers)",
  "cat-file": "prints any object in the repository, committed secret files included",
  bisect: "bisect run runs a command",
  "filter-branch": "runs shell commands",
  "filter-repo": "runs shell commands",
  submodule: "submodule foreach runs a command",
  difftool: "runs a diff program",
  mergetool: "runs a merge program",
  archimport: "runs external tools",
  daemon: "serves the repository",
  instaweb: "starts a web server",
  credential: "reads stored credentials",
  "credential-store": "reads stored credentials",
  "credential-cache": "reads stored credentials",
};

/** git subcommand options that run a program. */
const GIT_SUBCOMMAND_OPTIONS = [
  "--upload-pack",
  "--receive-pack",
  "--exec",
  "--extcmd",
  "--tool",
  "--ext-diff",
  "--textconv",
  "--open-files-in-pager",
  "--run",
];

export function gitPolicy(args: readonly string[]): ArgumentPolicyVerdict {
  let index = 0;
  // Global options come before the subcommand.
  while (index < args.length) {
    const argument = args[index] as string;
    if (!argument.startsWith("-")) break;
    if (argument === "-c" || argument.startsWith("-c")) {
      return refuse(
        "-c",
        "sets config that can name a program for git to run (alias.x=!cmd, core.pager, diff.external)",
      );
    }
    if (isLongOption(argument, "--config-env", false)) {
      return refuse("--config-env", "sets config that can name a program for git to run");
    }
    if (argument.startsWith("--exec-path=")) {
      return refuse("--exec-path", "makes git run its subcommands from another directory");
    }
    if (argument === "-C" || argument.startsWith("-C")) {
      return refuse("-C", "runs git in another directory, outside the confined cwd");
    }
    if (
      isLongOption(argument, "--git-dir", false) ||
      isLongOption(argument, "--work-tree", false)
    ) {
      return refuse(argument.split("=")[0] as string, "points git at another repository");
    }
    if (argument === "-p" || argument === "--paginate") {
      return refuse(argument, "starts the pager");
    }
    if (GIT_GLOBAL_WITH_VALUE.has(argument)) index += 1;
    index += 1;
  }
  const subcommand = args[index];
  if (subcommand === undefined) return undefined;
  const why = GIT_SUBCOMMANDS[subcommand];
  if (why !== undefined) return refuse(subcommand, why);
  for (const argument of args.slice(index + 1)) {
    if (argument === "--") break;
    const control = controlOptionRefusal(subcommand, argument);
    if (control !== undefined) return control;
    for (const option of GIT_SUBCOMMAND_OPTIONS) {
      if (isLongOption(argument, option, false))
        return refuse(option, "runs a program the model names");
    }
    if (
      (subcommand === "rebase" && (argument === "-x" || argument.startsWith("-x"))) ||
      (subcommand === "clone" && (argument === "-u" || argument === "--upload-pack")) ||
      (subcommand === "difftool" && argument === "-x")
    ) {
      return refuse(argument.slice(0, 2), "runs a program the model names");
    }
  }
  return undefined;
}
