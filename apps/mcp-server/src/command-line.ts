import { FAMILY_NAMES, type FamilyName, isFamilyName } from "./family-names.js";
import { DEFAULT_HTTP_HOST, FLAGS, MODES, type ServerMode } from "./flags.js";
import { checkFamilyFlags } from "./internal/family-flags.js";
import { FlagValues, typo } from "./internal/flag-values.js";
import {
  type GuiXvfbOptions,
  parseFigmaApiUrl,
  parseGuiXvfb,
} from "./internal/gui-design-flags.js";
import { isLoopbackHost } from "./loopback.js";
import { UsageError } from "./usage-error.js";

export { DEFAULT_HTTP_HOST, FLAGS, type FlagDescription, MODES, type ServerMode } from "./flags.js";
export type { GuiXvfbOptions } from "./internal/gui-design-flags.js";
export { UsageError } from "./usage-error.js";

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
  /** `--gui-xvfb` (with `--gui-app`): the display the gui family starts; absent = the host's `DISPLAY`. */
  guiXvfb?: GuiXvfbOptions;
  /** `--figma-api-url`: the design family's Figma API origin; absent = Figma's. */
  figmaApiUrl?: string;
  /** `--fixed-root`. */
  fixedRoot: boolean;
  /** `--output-schemas`. */
  outputSchemas: boolean;
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
        /** `--session-idle-seconds`: present only when given. */
        sessionIdleSeconds?: number;
      }
    | undefined;
}

/** What the command line asks for. */
export type CommandLine =
  | { action: "help" }
  | { action: "version" }
  | { action: "serve"; options: CommandLineOptions };

function parseList(value: string): string[] {
  return value
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

/** Other names `--families` takes for a family: `documents` is the office family (issue 33). */
const FAMILY_ALIASES: Readonly<Record<string, FamilyName>> = Object.freeze({ documents: "office" });

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
      const typed = name.toLowerCase();
      const lower =
        (Object.hasOwn(FAMILY_ALIASES, typed) ? FAMILY_ALIASES[typed] : undefined) ?? typed;
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

/** Flags that apply to the HTTP server only. */
const HTTP_FLAGS = [
  "host",
  "allow-origin",
  "token",
  "no-auth",
  "stateless",
  "session-idle-seconds",
];

/** The longest `--session-idle-seconds` (a week). */
const MAX_SESSION_IDLE_SECONDS = 604_800;

function parseIdleSeconds(value: string, stateless: boolean): number {
  if (!/^\d{1,6}$/.test(value) || Number(value) < 1 || Number(value) > MAX_SESSION_IDLE_SECONDS) {
    throw new UsageError(
      `--session-idle-seconds needs a whole number of seconds from 1 to ${MAX_SESSION_IDLE_SECONDS} (e.g. 900 for 15 minutes), not "${value}".`,
    );
  }
  if (stateless) {
    throw new UsageError(
      "--stateless keeps no sessions, so --session-idle-seconds would do nothing: drop one of them.",
    );
  }
  return Number(value);
}

function parseMode(flags: FlagValues): ServerMode {
  const modeValue = flags.one("mode") ?? "read-only";
  if (!(MODES as readonly string[]).includes(modeValue)) {
    throw new UsageError(
      `--mode must be read-only or read-write, not "${modeValue}".${typo(modeValue, MODES)}`,
    );
  }
  return modeValue as ServerMode;
}

/**
 * By default every family but code, office, design, preview, browser and gui (code's seven tools
 * would take the default set past its token budget, and grep_search already finds text; office's
 * tools would leave the read-only set no room under it and take read-write past it; design's
 * serve only agents given design files; preview and browser each start a Chromium, browser
 * reaches the live web; gui drives a desktop): memory only with --memory-dir and skills only with
 * --skills-dir.
 */
function chooseFamilies(flags: FlagValues): FamilyName[] {
  return flags.hasValue("families")
    ? parseFamilies(flags.many("families"))
    : FAMILY_NAMES.filter(
        (name) =>
          name !== "code" &&
          name !== "office" &&
          name !== "design" &&
          name !== "preview" &&
          name !== "browser" &&
          name !== "gui" &&
          (name !== "memory" || flags.hasValue("memory-dir")) &&
          (name !== "skills" || flags.hasValue("skills-dir")),
      );
}

/**
 * The browser acts on the live web (forms, clicks, posts) and gui on a desktop (anything its user
 * can do): only read-write mode mounts them.
 */
function checkDestructiveFamilies(mode: ServerMode, families: readonly FamilyName[]): void {
  if (families.includes("browser") && mode !== "read-write") {
    throw new UsageError(
      "--families browser mounts a browser that acts on the live web (fills forms, clicks, posts), which needs --mode read-write: add --mode read-write or drop browser from --families.",
    );
  }
  if (families.includes("gui") && mode !== "read-write") {
    throw new UsageError(
      "--families gui mounts computer, which drives a desktop with the mouse and keyboard (it can do anything its user can), which needs --mode read-write: add --mode read-write or drop gui from --families.",
    );
  }
}

function checkAllowCommands(
  allowCommands: readonly string[],
  mode: ServerMode,
  families: readonly FamilyName[],
): void {
  if (allowCommands.length === 0) return;
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

function parseHttp(flags: FlagValues): CommandLineOptions["http"] {
  const httpValue = flags.one("http");
  for (const name of HTTP_FLAGS) {
    if ((flags.hasValue(name) || flags.hasSwitch(name)) && httpValue === undefined) {
      throw new UsageError(
        `--${name} applies to the HTTP server: add --http <port> or drop --${name}.`,
      );
    }
  }
  const host = flags.one("host") ?? DEFAULT_HTTP_HOST;
  const noAuth = flags.hasSwitch("no-auth");
  if (noAuth) checkNoAuth(host, flags.hasValue("token"));
  if (httpValue === undefined) return undefined;
  const idleValue = flags.one("session-idle-seconds");
  const stateless = flags.hasSwitch("stateless");
  return {
    port: parsePort(httpValue),
    host,
    allowOrigins: flags.many("allow-origin").map(parseOrigin),
    token: flags.one("token"),
    ...(noAuth ? { noAuth: true as const } : {}),
    ...(stateless ? { stateless: true as const } : {}),
    ...(idleValue === undefined
      ? {}
      : { sessionIdleSeconds: parseIdleSeconds(idleValue, stateless) }),
  };
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
  const flags = new FlagValues(argv);
  if (flags.hasSwitch("help")) return { action: "help" };
  if (flags.hasSwitch("version")) return { action: "version" };
  const mode = parseMode(flags);
  const families = chooseFamilies(flags);
  const allowCommands = flags.many("allow-command");
  checkAllowCommands(allowCommands, mode, families);
  checkDestructiveFamilies(mode, families);
  const searxngValue = flags.one("searxng");
  const searxng = searxngValue === undefined ? undefined : parseSearxng(searxngValue);
  checkFamilyFlags(flags, families);
  const fixedRoot = flags.hasSwitch("fixed-root");
  const root = flags.one("root");
  if (fixedRoot && root === undefined) {
    throw new UsageError("--fixed-root confines to --root: add --root <dir> or drop --fixed-root.");
  }
  const memoryDir = flags.one("memory-dir");
  const skillsDir = flags.one("skills-dir");
  const guiXvfb = parseGuiXvfb(flags.one("gui-xvfb"), flags.one("gui-app"));
  const figmaApiUrl = flags.one("figma-api-url");
  return {
    action: "serve",
    options: {
      root,
      families,
      mode,
      allowCommands,
      searxng,
      allowHosts: flags.many("allow-host"),
      knowledgeDir: flags.one("knowledge-dir"),
      ...(memoryDir === undefined ? {} : { memoryDir }),
      ...(skillsDir === undefined ? {} : { skillsDir }),
      ...(guiXvfb === undefined ? {} : { guiXvfb }),
      ...(figmaApiUrl === undefined ? {} : { figmaApiUrl: parseFigmaApiUrl(figmaApiUrl) }),
      fixedRoot,
      outputSchemas: flags.hasSwitch("output-schemas"),
      http: parseHttp(flags),
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
    "  FIGMA_API_KEY       the Figma token of the design family (or FIGMA_ACCESS_TOKEN)",
    "  DISPLAY             the X display the gui family drives without --gui-xvfb",
    "  XDG_CACHE_HOME      where read-only mode keeps the knowledge index (default ~/.cache)",
    "",
    "Exit codes: 0 done, 1 failed while serving, 2 bad command line.",
    "",
  ].join("\n");
}
