import { delimiter } from "node:path";

/** Environment variables passed to commands by default (when set in the host's environment). */
export const DEFAULT_ENVIRONMENT_ALLOWLIST: readonly string[] = [
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "LANG",
  "LANGUAGE",
  "LC_ALL",
  "LC_CTYPE",
  "LC_MESSAGES",
  "TERM",
  "TZ",
  "TMPDIR",
  "TEMP",
  "TMP",
  "NO_COLOR",
  "SYSTEMROOT",
  "WINDIR",
  "COMSPEC",
  "PATHEXT",
];

/** Names never passed on from the host's environment, even when allowlisted. */
export const SECRET_ENVIRONMENT_PATTERN: RegExp =
  /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH|COOKIE|SESSION|PRIVATE/i;

/**
 * The environment a command gets: the allowlisted host variables that are set (never one named
 * like a secret), PATH replaced by the filtered search path, then the host's fixed variables.
 *
 * @param allowlist - host variables passed on
 * @param fixed - variables set for every command, as given
 * @param searchPath - the filtered PATH (see `filteredPath`)
 * @returns the environment
 */
export function buildCommandEnvironment(
  allowlist: readonly string[],
  fixed: Readonly<Record<string, string>>,
  searchPath: readonly string[],
): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = {};
  for (const name of allowlist) {
    const value = process.env[name];
    if (value === undefined || SECRET_ENVIRONMENT_PATTERN.test(name)) continue;
    environment[name] = value;
  }
  if (environment.PATH !== undefined) environment.PATH = searchPath.join(delimiter);
  for (const [name, value] of Object.entries(fixed)) environment[name] = value;
  return environment;
}
