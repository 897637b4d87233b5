/**
 * Glob patterns → regular expressions (secret paths, search tools' JS engines).
 * Supports `**` (any number of directories), `*` and `?` (within one segment), `[abc]`, and
 * `{a,b}` alternatives. A pattern without a `/` matches a name at any depth (like `.gitignore`).
 *
 * @param pattern - a glob such as `*.pem`, `.env.*`, `src/**` or `*.{ts,tsx}`
 * @returns a regular expression matching whole workspace paths (`/`-separated, relative)
 * @example
 * globToRegExp("*.pem").test("deploy/keys/server.pem"); // true
 */
export function globToRegExp(pattern: string): RegExp {
  let source = "";
  let index = 0;
  const anchoredAnywhere = !pattern.includes("/") || pattern.startsWith("**/");
  const body = pattern.startsWith("/") ? pattern.slice(1) : pattern;
  while (index < body.length) {
    const character = body[index] as string;
    if (character === "*") {
      if (body[index + 1] === "*") {
        const followedBySlash = body[index + 2] === "/";
        source += followedBySlash ? "(?:.*/)?" : ".*";
        index += followedBySlash ? 3 : 2;
        continue;
      }
      source += "[^/]*";
    } else if (character === "?") {
      source += "[^/]";
    } else if (character === "[") {
      const end = body.indexOf("]", index + 1);
      if (end === -1) source += "\\[";
      else {
        const inner = body.slice(index + 1, end).replace(/\\/g, "\\\\");
        source += `[${inner.startsWith("!") ? `^${inner.slice(1)}` : inner}]`;
        index = end;
      }
    } else if (character === "{") {
      const end = body.indexOf("}", index + 1);
      if (end === -1) source += "\\{";
      else {
        const options = body
          .slice(index + 1, end)
          .split(",")
          .map((option) => globToRegExp(option).source.replace(/^\^(?:\(\?:\.\*\/\)\?)?|\$$/g, ""));
        source += `(?:${options.join("|")})`;
        index = end;
      }
    } else {
      source += character.replace(/[.+^$()|\\]/g, "\\$&");
    }
    index += 1;
  }
  return new RegExp(`^${anchoredAnywhere && !body.startsWith("**/") ? "(?:.*/)?" : ""}${source}$`);
}

/**
 * Tells whether a workspace path matches any of the compiled patterns, itself or as the
 * contents of a matching directory (`.ssh` matches `.ssh/id_rsa`).
 *
 * @param path - a workspace path (relative, `/`-separated)
 * @param patterns - compiled with {@link globToRegExp}
 * @returns whether the path or one of its parent directories matches
 * @example
 * matchesAny("home/.ssh/id_rsa", [globToRegExp(".ssh")]); // true
 */
export function matchesAny(path: string, patterns: readonly RegExp[]): boolean {
  if (path.length === 0) return false;
  const segments = path.split("/");
  for (let length = segments.length; length > 0; length -= 1) {
    const prefix = length === segments.length ? path : segments.slice(0, length).join("/");
    for (const pattern of patterns) if (pattern.test(prefix)) return true;
  }
  return false;
}

/**
 * Paths no agentool tool reads, lists, searches, stages or writes, whatever the glob or symlink:
 * environment files, keys, cloud and package-manager credentials. Globs; one without a `/`
 * matches a name at any depth; a matching directory hides everything inside it.
 */
export const DEFAULT_SECRET_PATHS: readonly string[] = [
  ".env",
  ".env.*",
  "*.env",
  ".ssh",
  ".aws",
  ".gnupg",
  ".azure",
  ".config/gcloud",
  ".kube/config",
  ".docker/config.json",
  ".npmrc",
  ".pypirc",
  ".netrc",
  ".git-credentials",
  ".git/config",
  "*.pem",
  "*.key",
  "*.p12",
  "*.pfx",
  "*.keystore",
  "*.jks",
  "id_rsa",
  "id_dsa",
  "id_ecdsa",
  "id_ed25519",
  "credentials.json",
  "secrets.json",
  "secrets.yaml",
  "secrets.yml",
];

/** Secret-looking names meant to be shared (templates), not treated as secret by default. */
export const DEFAULT_SECRET_EXCEPTIONS: readonly string[] = [
  ".env.example",
  ".env.sample",
  ".env.template",
  ".env.dist",
  "*.env.example",
];

/** Options of {@link createSecretPathMatcher}. */
export interface SecretPathOptions {
  /** Globs of secret paths. Default {@link DEFAULT_SECRET_PATHS}. */
  secretPaths?: readonly string[];
  /** Globs excepted from `secretPaths`. Default {@link DEFAULT_SECRET_EXCEPTIONS}. */
  secretExceptions?: readonly string[];
}

/**
 * Builds the secret-path test every family shares.
 *
 * @param options - the secret globs and their exceptions (defaults when omitted)
 * @returns a function telling whether a workspace path is secret (itself or inside a secret directory)
 * @example
 * const isSecret = createSecretPathMatcher();
 * isSecret("config/.env.production"); // true
 * isSecret(".env.example"); // false
 */
export function createSecretPathMatcher(
  options: SecretPathOptions = {},
): (path: string) => boolean {
  const secrets = (options.secretPaths ?? DEFAULT_SECRET_PATHS).map(globToRegExp);
  const exceptions = (options.secretExceptions ?? DEFAULT_SECRET_EXCEPTIONS).map(globToRegExp);
  return (path) =>
    path.length > 0 &&
    matchesAny(path, secrets) &&
    !exceptions.some((pattern) => pattern.test(path));
}
