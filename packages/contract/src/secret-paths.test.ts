import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createSecretPathMatcher,
  DEFAULT_SECRET_EXCEPTIONS,
  DEFAULT_SECRET_PATHS,
  globToRegExp,
  secretGlobAnywhere,
} from "./glob.js";

const isSecret = createSecretPathMatcher();

/** Each new default entry, at the root, deeper down, and in other cases. */
const SECRET = [
  // Anywhere, not only at the root.
  ".kube/config",
  "home/me/.kube/config",
  ".docker/config.json",
  "ops/user/.docker/config.json",
  ".git/config",
  "vendor/lib/.git/config",
  ".git/modules/lib/config",
  ".git/modules/a/b/config",
  "sub/.git/modules/lib/config",
  ".config/gcloud/credentials.db",
  "home/u/.config/gcloud/application_default_credentials.json",
  // Case-insensitive.
  "deploy/SERVER.PEM",
  "Keys/Server.Pem",
  ".ENV",
  "config/.Env.Production",
  ".SSH/id_rsa",
  "HOME/.Kube/Config",
  // New entries.
  ".envrc",
  "app/.envrc",
  ".env-production",
  ".env_local",
  "infra/prod.tfvars",
  "infra/prod.auto.tfvars",
  "terraform.tfstate",
  "infra/terraform.tfstate.backup",
  ".terraformrc",
  ".yarnrc.yml",
  "pkg/.yarnrc.yml",
  ".pgpass",
  ".my.cnf",
  ".vault-token",
  ".config/gh/hosts.yml",
  "home/u/.config/gh/hosts.yml",
  ".cargo/credentials",
  ".cargo/credentials.toml",
  "home/u/.cargo/credentials.toml",
  ".gem/credentials",
  ".m2/settings.xml",
  "home/u/.m2/settings.xml",
  ".gradle/gradle.properties",
  "putty/server.ppk",
  "putty/SERVER.PPK",
  "server.ppk.bak",
  "backup/id_rsa",
  "backup/id_rsa.bak",
  "backup/id_ed25519_sk",
  "backup/id_ecdsa.old",
  "keys/id_dsa",
  "server.pem.bak",
  "tls.key.bak",
  ".bash_history",
  "home/u/.zsh_history",
  ".python_history",
  ".psql_history",
  ".local/share/fish/fish_history",
  "gcp-service-account.json",
  "deploy/my-service-account-key.json",
  "deploy/Service-Account.JSON",
  ".htpasswd",
  "web/.htpasswd",
  ".s3cfg",
  ".boto",
  // A secret directory hides everything inside it, exceptions included.
  ".ssh/id_rsa.pub",
  ".ssh/known_hosts",
];

const NOT_SECRET = [
  ".env.example",
  "app/.env.example",
  ".env-example",
  ".env_sample",
  "backup/id_rsa.pub",
  "keys/id_ed25519.pub",
  "src/id_generator.ts",
  "src/identity.ts",
  "src/chat_history/index.ts",
  "src/history.ts",
  "docs/kube/config.md",
  ".kube/cache/discovery.json",
  "config.json",
  "docker/config.json",
  ".git/HEAD",
  ".git/modules/lib/HEAD",
  "src/env.ts",
  "terraform/main.tf",
  "README.md",
  "",
];

describe("the default secret paths", () => {
  it.each(SECRET)("%s is secret", (path) => {
    expect(isSecret(path)).toBe(true);
  });

  it.each(NOT_SECRET)("%s is not secret", (path) => {
    expect(isSecret(path)).toBe(false);
  });
});

describe("a host's own list", () => {
  it("matches anywhere and case-insensitively; a leading / anchors at the root", () => {
    const own = createSecretPathMatcher({
      secretPaths: ["private/keys", "/top-only.txt"],
      secretExceptions: [],
    });
    expect(own("private/keys/a")).toBe(true);
    expect(own("x/Private/Keys")).toBe(true);
    expect(own("top-only.txt")).toBe(true);
    expect(own("deep/top-only.txt")).toBe(false);
  });

  it("an exception frees a path the list names itself, not one inside a secret directory", () => {
    const own = createSecretPathMatcher({
      secretPaths: ["private", "*.key"],
      secretExceptions: ["private/public.md", "demo.key"],
    });
    expect(own("private/public.md")).toBe(true);
    expect(own("demo.key")).toBe(false);
    expect(own("private/demo.key")).toBe(true);
  });
});

describe("secretGlobAnywhere", () => {
  it("prepends **/ unless anchored", () => {
    expect(secretGlobAnywhere(".kube/config")).toBe("**/.kube/config");
    expect(secretGlobAnywhere("*.pem")).toBe("**/*.pem");
    expect(secretGlobAnywhere("**/x")).toBe("**/x");
    expect(secretGlobAnywhere("/top")).toBe("top");
  });
});

describe("the combined secret matcher", () => {
  // The reference: one case-insensitive expression per glob, tested on the path and each parent.
  const reference = (() => {
    const secrets = DEFAULT_SECRET_PATHS.map(
      (pattern) =>
        new RegExp(
          globToRegExp(pattern.startsWith("/") ? pattern : secretGlobAnywhere(pattern)).source,
          "i",
        ),
    );
    const exceptions = DEFAULT_SECRET_EXCEPTIONS.map(globToRegExp);
    return (path: string) => {
      if (path.length === 0) return false;
      const segments = path.split("/");
      for (let length = segments.length; length > 0; length -= 1) {
        const prefix = segments.slice(0, length).join("/");
        if (!secrets.some((pattern) => pattern.test(prefix))) continue;
        if (!exceptions.some((pattern) => pattern.test(prefix))) return true;
      }
      return false;
    };
  })();
  const segment = fc.oneof(
    fc.constantFrom(
      ".env",
      ".env.local",
      ".env.example",
      "id_rsa",
      "id_rsa.pub",
      "server.PEM",
      ".ssh",
      ".kube",
      "config",
      ".git",
      "credentials",
      ".npmrc",
      ".aws",
      "src",
      "notes.md",
      "secrets.yaml",
      ".bash_history",
      "terraform.tfstate",
    ),
    fc.stringMatching(/^[A-Za-z0-9._-]{1,12}$/),
    fc.constantFrom("a\nb", "x\r.env", "line\u2028id_rsa", "q'\n"),
  );

  it("decides exactly as one expression per glob does, on random paths", () => {
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 6 }), (segments) => {
        const path = segments.join("/");
        expect(isSecret(path)).toBe(reference(path));
        // A walk's check of an entry whose directories are not secret gives the same answer.
        const slash = path.lastIndexOf("/");
        if (slash === -1 || !reference(path.slice(0, slash)))
          expect(isSecret.entry(path)).toBe(reference(path));
      }),
      { numRuns: 3000 },
    );
  });

  it("never starts a match past a line break (an argument with newlines is not a path)", () => {
    const argument = "const f = 1;\nfs.writeFileSync('/usr/agentool-x', 'x'); // .env";
    expect(isSecret(argument)).toBe(reference(argument));
  });

  it("tries bodies that can cross a '/' at every segment start, the others at the last (random globs)", () => {
    // `[!b]` and `**` can match a `/`; `*`, `?` and braces of plain text cannot. Globs that start
    // with `*` share one scan.
    const globs = [
      "a[!b]c",
      "d**e",
      "{f,g}/h",
      "k*",
      "m?n",
      "/p/q*",
      "**/r",
      "s{t,u}",
      "v/**/w",
      "*q",
      "*{t,u}w",
    ];
    const own = createSecretPathMatcher({ secretPaths: globs, secretExceptions: ["kx"] });
    const expressions = globs.map(
      (pattern) =>
        new RegExp(
          globToRegExp(pattern.startsWith("/") ? pattern : secretGlobAnywhere(pattern)).source,
          "i",
        ),
    );
    const exception = globToRegExp("kx");
    const slow = (path: string) => {
      const segments = path.split("/");
      for (let length = segments.length; length > 0; length -= 1) {
        const prefix = segments.slice(0, length).join("/");
        if (expressions.some((pattern) => pattern.test(prefix)) && !exception.test(prefix))
          return true;
      }
      return false;
    };
    const piece = fc.stringMatching(/^[abcdefghkmnpqrstuvwxK/\n]{0,5}$/);
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 5 }), (pieces) => {
        const path = pieces.join("/");
        expect(own(path)).toBe(path.length > 0 && slow(path));
        const slash = path.lastIndexOf("/");
        if (slash === -1 || !slow(path.slice(0, slash)))
          expect(own.entry(path)).toBe(path.length > 0 && slow(path));
      }),
      { numRuns: 5000 },
    );
    expect(own("x/a/c")).toBe(true);
    expect(own("x/d/y/e")).toBe(true);
    expect(own("x/g/h")).toBe(true);
    expect(own("x/m/n")).toBe(false);
  });

  it("keeps anchored globs anchored at the root", () => {
    const anchored = createSecretPathMatcher({ secretPaths: ["/top.key", "*.pem"] });
    expect(anchored("top.key")).toBe(true);
    expect(anchored("sub/top.key")).toBe(false);
    expect(anchored("sub/deep/KEY.PEM")).toBe(true);
  });
});
