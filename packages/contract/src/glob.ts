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
 * environment files, keys, cloud, infrastructure and package-manager credentials, shell
 * histories. Globs, matched at any depth (`.kube/config` also matches `home/u/.kube/config`;
 * a leading `/` anchors one at the root) and case-insensitively (`*.pem` matches `KEY.PEM`); a
 * matching directory hides everything inside it. No braces: the same globs feed ripgrep's
 * `--iglob` and git's `:(icase,exclude,glob)` pathspecs. Content holding a private key is
 * caught by name-independent detection as well (`containsPrivateKey`).
 */
export const DEFAULT_SECRET_PATHS: readonly string[] = [
  // Environment files.
  ".env",
  ".env.*",
  ".env-*",
  ".env_*",
  "*.env",
  ".envrc",
  // Key and credential directories.
  ".ssh",
  ".aws",
  ".gnupg",
  ".azure",
  ".config/gcloud",
  ".config/gh/hosts.yml",
  ".kube/config",
  ".docker/config.json",
  // Package managers and registries.
  ".npmrc",
  ".yarnrc.yml",
  ".pypirc",
  ".cargo/credentials",
  ".cargo/credentials.*",
  ".gem/credentials",
  ".m2/settings.xml",
  ".gradle/gradle.properties",
  // Network, database and service credentials.
  ".netrc",
  ".pgpass",
  ".my.cnf",
  ".vault-token",
  ".htpasswd",
  ".s3cfg",
  ".boto",
  ".git-credentials",
  ".git/config",
  ".git/config.worktree",
  ".git/modules/**/config",
  "*service-account*.json",
  "credentials.json",
  "secrets.json",
  "secrets.yaml",
  "secrets.yml",
  // Infrastructure state and variables.
  "*.tfvars",
  "*.tfstate",
  "*.tfstate.*",
  ".terraformrc",
  // Keys and keystores, and their backup copies.
  "*.pem",
  "*.pem.bak",
  "*.key",
  "*.key.bak",
  "*.p12",
  "*.pfx",
  "*.ppk",
  "*.ppk.bak",
  "*.keystore",
  "*.jks",
  "id_rsa*",
  "id_dsa*",
  "id_ecdsa*",
  "id_ed25519*",
  "id_xmss*",
  // Shell and REPL histories (commands typed with tokens in them): dot-files only, so a source
  // directory such as `chat_history/` stays visible.
  ".*_history",
  "fish_history",
];

/**
 * Secret-looking names meant to be shared (templates, public keys), not treated as secret by
 * default. An exception frees a path the secret list names itself, never a path inside a secret
 * directory (`.ssh/id_rsa.pub` stays hidden). Matched as written (case-sensitively).
 */
export const DEFAULT_SECRET_EXCEPTIONS: readonly string[] = [
  ".env.example",
  ".env.sample",
  ".env.template",
  ".env.dist",
  ".env-example",
  ".env_example",
  ".env-sample",
  ".env_sample",
  "*.env.example",
  "id_*.pub",
  "id_*.pub.bak",
];

/** Options of {@link createSecretPathMatcher}. */
export interface SecretPathOptions {
  /** Globs of secret paths. Default {@link DEFAULT_SECRET_PATHS}. */
  secretPaths?: readonly string[];
  /** Globs excepted from `secretPaths`. Default {@link DEFAULT_SECRET_EXCEPTIONS}. */
  secretExceptions?: readonly string[];
}

/**
 * A secret glob as matched anywhere: `**\/` prepended unless it already starts with `**\/` or
 * is anchored at the root with a leading `/` (which is then dropped). For deriving ripgrep
 * `--iglob '!…'` exclusions and git `:(exclude,icase,glob)` pathspecs from a secret list.
 *
 * @param pattern - a secret glob such as `.kube/config` or `*.pem`
 * @returns the glob to hand to an engine that anchors globs containing `/` at its root
 * @example
 * secretGlobAnywhere(".kube/config"); // "**\/.kube/config"
 */
export function secretGlobAnywhere(pattern: string): string {
  if (pattern.startsWith("/")) return pattern.slice(1);
  return pattern.startsWith("**/") ? pattern : `**/${pattern}`;
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
  const secrets = (options.secretPaths ?? DEFAULT_SECRET_PATHS).map((pattern) => {
    const anywhere = pattern.startsWith("/") ? pattern : secretGlobAnywhere(pattern);
    return new RegExp(globToRegExp(anywhere).source, "i");
  });
  const exceptions = (options.secretExceptions ?? DEFAULT_SECRET_EXCEPTIONS).map(globToRegExp);
  return (path) => {
    if (path.length === 0) return false;
    const segments = path.split("/");
    // The path itself or any directory above it; an exception frees only the prefix it names.
    for (let length = segments.length; length > 0; length -= 1) {
      const prefix = length === segments.length ? path : segments.slice(0, length).join("/");
      if (!secrets.some((pattern) => pattern.test(prefix))) continue;
      if (!exceptions.some((pattern) => pattern.test(prefix))) return true;
    }
    return false;
  };
}
