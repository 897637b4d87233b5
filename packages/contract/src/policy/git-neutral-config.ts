/** One git configuration entry: key and value. */
export type GitConfigEntry = readonly [key: string, value: string];

/**
 * The configuration forced on every git a tool starts for a model — `git_*` tools and an allowed
 * `git` in `run_command` alike — so a hostile repository's `.git/config` (or a file it includes)
 * cannot make git run a program: no fsmonitor, pager, editor, ssh command, askpass, credential
 * helper, external diff, signing program, signature display, submodule recursion, `ext::`
 * transport or automatic gc/maintenance. Given as command-scope config (`GIT_CONFIG_COUNT`),
 * which beats every config file and is inherited by the gits git itself starts.
 */
export const GIT_NEUTRAL_CONFIG: readonly GitConfigEntry[] = Object.freeze([
  ["core.fsmonitor", "false"],
  ["core.pager", "cat"],
  ["core.editor", ":"],
  ["sequence.editor", ":"],
  ["core.sshCommand", "false"],
  ["core.askPass", ""],
  ["credential.helper", ""],
  // Empty: any diff that forgot --no-ext-diff fails loudly instead of running a command.
  ["diff.external", ""],
  ["gpg.program", "false"],
  ["gpg.openpgp.program", "false"],
  ["gpg.x509.program", "false"],
  ["gpg.ssh.program", "false"],
  ["gpg.ssh.defaultKeyCommand", "false"],
  ["commit.gpgSign", "false"],
  ["tag.gpgSign", "false"],
  ["log.showSignature", "false"],
  ["status.submoduleSummary", "false"],
  ["submodule.recurse", "false"],
  ["protocol.ext.allow", "never"],
  ["gc.auto", "0"],
  ["maintenance.auto", "false"],
] as const);

/** Where hooks point when they must not run: a path that is never a directory of hooks. */
export const GIT_NO_HOOKS_PATH = "/dev/null";

/** Options of {@link gitNeutralConfig}. */
export interface GitNeutralConfigOptions {
  /** Let the repository's hooks run (default `false`: `core.hooksPath` points nowhere). */
  hooks?: boolean;
  /** Entries the spawner adds after the neutral ones (they win over them). */
  extra?: readonly GitConfigEntry[];
}

/**
 * The neutral configuration for one spawner: {@link GIT_NEUTRAL_CONFIG}, hooks off unless asked
 * for, then the spawner's own entries.
 *
 * @param options - hooks and extra entries
 * @returns the entries, in the order git applies them
 */
export function gitNeutralConfig(options: GitNeutralConfigOptions = {}): GitConfigEntry[] {
  return [
    ...GIT_NEUTRAL_CONFIG,
    ...(options.hooks === true ? [] : [["core.hooksPath", GIT_NO_HOOKS_PATH] as const]),
    ...(options.extra ?? []),
  ];
}

/**
 * The environment that hands git a configuration at command scope: `GIT_CONFIG_COUNT` and a
 * `GIT_CONFIG_KEY_n` / `GIT_CONFIG_VALUE_n` pair per entry.
 *
 * @param entries - the configuration (e.g. from {@link gitNeutralConfig})
 * @returns the variables to add to git's environment
 * @example
 * spawn("git", ["status"], { env: { ...process.env, ...gitConfigEnvironment(gitNeutralConfig()) } });
 */
export function gitConfigEnvironment(entries: readonly GitConfigEntry[]): Record<string, string> {
  const environment: Record<string, string> = { GIT_CONFIG_COUNT: String(entries.length) };
  entries.forEach(([key, value], index) => {
    environment[`GIT_CONFIG_KEY_${index}`] = key;
    environment[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  return environment;
}
