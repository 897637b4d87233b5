/**
 * Glob patterns → regular expressions, for secret paths and the search tools' JS fallback.
 * Supports `**` (any number of directories), `*` and `?` (within one segment), `[abc]`, and
 * `{a,b}` alternatives. A pattern without a `/` matches a name at any depth (like `.gitignore`).
 *
 * @internal
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
 * @internal
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
