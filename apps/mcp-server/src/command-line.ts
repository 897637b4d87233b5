import { isAbsolute } from "node:path";
import { parseArgs } from "node:util";
import { FAMILY_NAMES, type FamilyName, isFamilyName } from "./family-names.js";
import { DEFAULT_HTTP_HOST, FLAGS, MODES, type ServerMode } from "./flags.js";
import { closestMatch } from "./internal/closest-match.js";
import { normalizeKnowledgeDir } from "./knowledge-folder.js";
import { isLoopbackHost } from "./loopback.js";

export { DEFAULT_HTTP_HOST, FLAGS, type FlagDescription, MODES, type ServerMode } from "./flags.js";

/** The options of a serving run, as the command line gave them. */
export interface CommandLineOptions {
  /** `--root`, as given (resolved later). */
  root: string | undefined;
  /** The families to serve (deduplicated, in {@link FAMILY_NAMES} order). */
  families: FamilyName[];
  /** `--mode`. */
  mode: ServerMode;
  /** `--allow-command` values. */
  allowCommands: string[];
  /** `--searxng`. */
  searxng: string | undefined;
  /** `--allow-host` values. */
  allowHosts: string[];
  /** `--knowledge-dir`, as given (checked against the root later). */
  knowledgeDir: string | undefined;
  /** `--memory-dir`, as given; present only when it was. */
  memoryDir?: string;
  /** `--skills-dir`, as given; present only when it was. */
  skillsDir?: string;
  /** `--fixed-root`. */
  fixedRoot: boolean;
  /** The HTTP options, when `--http` was given. */
  http:
    | {
        /** `--http`: the port (0 = any free port). */
        port: number;
        /** `--host`. */
        host: string;
        /** `--allow-origin` values. */
        allowOrigins: string[];
        /** `--token`, when given. */
        token: string | undefined;
        /** `--no-auth` (loopback only): present, `true`, only when given. */
        noAuth?: true;
        /** `--stateless`: present, `true`, only when given. */
        stateless?: true;
      }
    | undefined;
}

/** What the command line asks for. */
export type CommandLine =
  | { action: "help" }
  | { action: "version" }
  | { action: "serve"; options: CommandLineOptions };

/** A command line that cannot run: the message names the flag and the fix (exit code 2). */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

const FLAG_NAMES = FLAGS.map((flag) => `--${flag.name}`);

function typo(word: string, candidates: readonly string[]): string {
  const closest = closestMatch(word, candidates);
  return closest === undefined ? "" : ` Did you mean ${closest}?`;
}

function parseList(value: string): string[] {
  return value
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

function parseFamilies(values: readonly string[]): FamilyName[] {
  const chosen = new Set<FamilyName>();
  for (const value of values) {
    const names = parseList(value);
    if (names.length === 0) {
      throw new UsageError(
        `--families needs at least one family: pass a comma-separated list of ${FAMILY_NAMES.join(", ")}.`,
      );
    }
    for (const name of names) {
      const lower = name.toLowerCase();
      if (!isFamilyName(lower)) {
        throw new UsageError(
          `--families: unknown family "${name}".${typo(lower, FAMILY_NAMES)} Known families: ${FAMILY_NAMES.join(", ")}.`,
        );
      }
      chosen.add(lower);
    }
  }
  return FAMILY_NAMES.filter((name) => chosen.has(name));
}

function parsePort(value: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65_535) {
    throw new UsageError(
      `--http needs a port number from 0 to 65535 (0 picks a free port), not "${value}".`,
    );
  }
  return Number(value);
}

function parseSearxng(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(
      `--searxng needs the URL of a SearXNG instance, e.g. --searxng http://127.0.0.1:8888 (got "${value}").`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UsageError(`--searxng needs an http:// or https:// URL, not "${value}".`);
  }
  return value;
}

function parseOrigin(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(
      `--allow-origin needs an origin such as https://app.example or http://localhost:3000 (got "${value}").`,
    );
  }
  if (url.origin === "null" || url.origin !== value.replace(/\/$/, "")) {
    throw new UsageError(
      `--allow-origin needs a bare origin (scheme, host and port, no path), e.g. ${url.origin === "null" ? "https://app.example" : url.origin} (got "${value}").`,
    );
  }
  return url.origin;
}

/** `--no-auth` only on a loopback address and without a token (which it would ignore). */
function checkNoAuth(host: string, hasToken: boolean): void {
  if (hasToken) {
    throw new UsageError(
      "--no-auth serves without a bearer token, so --token would be ignored: drop one of them.",
    );
  }
  if (!isLoopbackHost(host)) {
    throw new UsageError(
      `--no-auth is refused on --host ${host}: it is not a loopback address, so anyone who can reach it could use these tools without a token. Use --host 127.0.0.1 (or ::1, localhost), or drop --no-auth and send a bearer token.`,
    );
  }
}

/**
 * Parses `agentool-mcp`'s command line (with `node:util` `parseArgs`) and checks it as a whole:
 * unknown flags (with the closest known flag), missing values, bad values and flags that need
 * another flag are refused with a {@link UsageError} whose message names the flag and the fix.
 *
 * @param argv - the arguments after the program name (`process.argv.slice(2)`)
 * @returns help, version, or the options to serve with
 * @throws UsageError for a command line that cannot run
 * @example
 * parseCommandLine(["--root", ".", "--mode", "read-write"]);
 * // { action: "serve", options: { root: ".", mode: "read-write", families: ["core", …], … } }
 */
export function parseCommandLine(argv: readonly string[]): CommandLine {
  const options = Object.fromEntries(
    FLAGS.map((flag) => [
      flag.name,
      {
        type: flag.value === undefined ? ("boolean" as const) : ("string" as const),
        multiple: true,
        ...(flag.short === undefined ? {} : { short: flag.short }),
      },
    ]),
  );
  const { tokens } = parseArgs({
    args: [...argv],
    options,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const values = new Map<string, string[]>();
  const switches = new Set<string>();
  for (const token of tokens) {
    if (token.kind === "option-terminator") {
      throw new UsageError("agentool-mcp takes no arguments after --; pass flags only.");
    }
    if (token.kind === "positional") {
      throw new UsageError(
        `Unexpected argument "${token.value}": agentool-mcp takes flags only (e.g. --root ${token.value}).`,
      );
    }
    const flag = FLAGS.find((candidate) => candidate.name === token.name);
    if (flag === undefined) {
      const shown = token.rawName.startsWith("--") ? token.rawName : `--${token.name}`;
      throw new UsageError(`Unknown flag ${token.rawName}.${typo(shown, FLAG_NAMES)}`);
    }
    if (flag.value === undefined) {
      if (token.value !== undefined) {
        throw new UsageError(
          `--${flag.name} takes no value (got "--${flag.name}=${token.value}").`,
        );
      }
      switches.add(flag.name);
      continue;
    }
    if (
      token.value === undefined ||
      (!token.inlineValue && token.value.startsWith("--") && token.value.length > 2)
    ) {
      const got = token.value === undefined ? "" : ` (got the flag ${token.value} instead)`;
      throw new UsageError(`--${flag.name} needs a value: --${flag.name} ${flag.value}${got}.`);
    }
    if (token.value.length === 0) {
      throw new UsageError(`--${flag.name} needs a non-empty value: --${flag.name} ${flag.value}.`);
    }
    const list = values.get(flag.name) ?? [];
    if (list.length > 0 && !flag.repeatable && flag.name !== "families") {
      throw new UsageError(
        `--${flag.name} was given twice ("${list[0]}" and "${token.value}"); give it once.`,
      );
    }
    list.push(token.value);
    values.set(flag.name, list);
  }
  if (switches.has("help")) return { action: "help" };
  if (switches.has("version")) return { action: "version" };
  const one = (name: string) => values.get(name)?.[0];
  const many = (name: string) => values.get(name) ?? [];

  const modeValue = one("mode") ?? "read-only";
  if (!(MODES as readonly string[]).includes(modeValue)) {
    throw new UsageError(
      `--mode must be read-only or read-write, not "${modeValue}".${typo(modeValue, MODES)}`,
    );
  }
  const mode = modeValue as ServerMode;
  // By default every family but preview (it starts a Chromium); memory only with --memory-dir
  // and skills only with --skills-dir.
  const families = values.has("families")
    ? parseFamilies(many("families"))
    : FAMILY_NAMES.filter(
        (name) =>
          name !== "preview" &&
          (name !== "memory" || values.has("memory-dir")) &&
          (name !== "skills" || values.has("skills-dir")),
      );
  const allowCommands = many("allow-command");
  if (allowCommands.length > 0) {
    if (mode !== "read-write") {
      throw new UsageError(
        "--allow-command mounts run_command, which needs --mode read-write: add --mode read-write or drop --allow-command.",
      );
    }
    if (!families.includes("fs")) {
      throw new UsageError(
        "--allow-command mounts run_command in the fs family: add fs to --families or drop --allow-command.",
      );
    }
  }
  const searxngValue = one("searxng");
  const searxng = searxngValue === undefined ? undefined : parseSearxng(searxngValue);
  const allowHosts = many("allow-host");
  if ((searxng !== undefined || allowHosts.length > 0) && !families.includes("web")) {
    const flag = searxng !== undefined ? "--searxng" : "--allow-host";
    throw new UsageError(
      `${flag} configures the web family: add web to --families or drop ${flag}.`,
    );
  }
  const knowledgeDir = one("knowledge-dir");
  if (knowledgeDir !== undefined) {
    if (!families.includes("knowledge")) {
      throw new UsageError(
        "--knowledge-dir configures the knowledge family: add knowledge to --families or drop --knowledge-dir.",
      );
    }
    try {
      // Lexical checks now (`..` above the root, `~`, NUL); an absolute path is checked against --root later.
      if (!isAbsolute(knowledgeDir.trim())) normalizeKnowledgeDir(knowledgeDir);
    } catch (error) {
      throw new UsageError(error instanceof Error ? error.message : String(error));
    }
  }
  const memoryDir = one("memory-dir");
  if (memoryDir !== undefined && !families.includes("memory")) {
    throw new UsageError(
      "--memory-dir configures the memory family: add memory to --families or drop --memory-dir.",
    );
  }
  if (memoryDir === undefined && values.has("families") && families.includes("memory")) {
    throw new UsageError(
      "The memory family keeps its memories in a folder: add --memory-dir <dir> (e.g. --memory-dir ~/.agentool/memory) or drop memory from --families.",
    );
  }
  const skillsDir = one("skills-dir");
  if (skillsDir !== undefined && !families.includes("skills")) {
    throw new UsageError(
      "--skills-dir configures the skills family: add skills to --families or drop --skills-dir.",
    );
  }
  if (skillsDir === undefined && values.has("families") && families.includes("skills")) {
    throw new UsageError(
      "The skills family serves the skills of a folder: add --skills-dir <dir> (e.g. --skills-dir .agents/skills) or drop skills from --families.",
    );
  }
  const fixedRoot = switches.has("fixed-root");
  const root = one("root");
  if (fixedRoot && root === undefined) {
    throw new UsageError("--fixed-root confines to --root: add --root <dir> or drop --fixed-root.");
  }
  const httpValue = one("http");
  for (const name of ["host", "allow-origin", "token", "no-auth", "stateless"]) {
    if ((values.has(name) || switches.has(name)) && httpValue === undefined) {
      throw new UsageError(
        `--${name} applies to the HTTP server: add --http <port> or drop --${name}.`,
      );
    }
  }
  const host = one("host") ?? DEFAULT_HTTP_HOST;
  const noAuth = switches.has("no-auth");
  if (noAuth) checkNoAuth(host, values.has("token"));
  const http =
    httpValue === undefined
      ? undefined
      : {
          port: parsePort(httpValue),
          host,
          allowOrigins: many("allow-origin").map(parseOrigin),
          token: one("token"),
          ...(noAuth ? { noAuth: true as const } : {}),
          ...(switches.has("stateless") ? { stateless: true as const } : {}),
        };
  return {
    action: "serve",
    options: {
      root,
      families,
      mode,
      allowCommands,
      searxng,
      allowHosts,
      knowledgeDir,
      ...(memoryDir === undefined ? {} : { memoryDir }),
      ...(skillsDir === undefined ? {} : { skillsDir }),
      fixedRoot,
      http,
    },
  };
}

/**
 * The `--help` text: usage, every flag of {@link FLAGS}, and where the tools are confined.
 *
 * @param version - the package version shown in the first line
 * @returns the help text (ends with a newline)
 * @example
 * process.stdout.write(formatHelp("0.1.0"));
 */
export function formatHelp(version: string): string {
  const rows = FLAGS.map((flag) => {
    const names = `${flag.short === undefined ? "    " : `-${flag.short}, `}--${flag.name}${flag.value === undefined ? "" : ` ${flag.value}`}`;
    const repeat = flag.repeatable ? " (repeatable)" : "";
    return [names, `${flag.description}${repeat}`] as const;
  });
  const width = Math.max(...rows.map(([names]) => names.length)) + 2;
  const lines = rows.map(([names, text]) => `  ${names.padEnd(width)}${text}`);
  return [
    `agentool-mcp ${version} — agentool's tools over the Model Context Protocol`,
    "",
    "Usage: agentool-mcp --root <dir> [flags]",
    "       npx @agentool/mcp-server --root .",
    "",
    "Serves over stdio (the protocol on stdout, logs on stderr) unless --http is given.",
    "Read-only unless --mode read-write.",
    "",
    "Flags:",
    ...lines,
    "",
    "Environment:",
    "  AGENTOOL_MCP_TOKEN  the bearer token of --http (preferred over --token)",
    "  XDG_CACHE_HOME      where read-only mode keeps the knowledge index (default ~/.cache)",
    "",
    "Exit codes: 0 done, 1 failed while serving, 2 bad command line.",
    "",
  ].join("\n");
}
