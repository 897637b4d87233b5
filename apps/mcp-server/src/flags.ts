import { FAMILY_NAMES } from "./family-names.js";

/** What `--mode` accepts. */
export const MODES = ["read-only", "read-write"] as const;

/** `"read-only"` (the default) or `"read-write"`. */
export type ServerMode = (typeof MODES)[number];

/** The address `--http` binds to unless `--host` says otherwise. */
export const DEFAULT_HTTP_HOST = "127.0.0.1";

/** One flag of the command line, as `--help` lists it. */
export interface FlagDescription {
  /** The flag without its dashes, e.g. `"root"`. */
  name: string;
  /** A one-letter alias (`-h`), when there is one. */
  short?: string;
  /** The placeholder of its value (`<dir>`), absent for a switch. */
  value?: string;
  /** Whether it may be given several times. */
  repeatable?: boolean;
  /** What it does, one or two sentences. */
  description: string;
}

/** Every flag `agentool-mcp` accepts, in the order `--help` lists them. */
export const FLAGS: readonly FlagDescription[] = [
  {
    name: "root",
    value: "<dir>",
    description:
      "The directory the fs, git, code, office, design and knowledge tools are confined to when the client sends no MCP roots (a client's first file:// root wins unless --fixed-root).",
  },
  {
    name: "families",
    value: "<list>",
    description: `Comma-separated families to serve: ${FAMILY_NAMES.join(",")} (default: all but code, office, design, preview, browser and gui; memory with --memory-dir, skills with --skills-dir; documents is another name for office). browser and gui need --mode read-write.`,
  },
  {
    name: "mode",
    value: "read-only|read-write",
    description:
      "read-only (default): look, list, search, read; nothing is written inside the root. read-write adds the fs, git, code and office tools that change files, stage, commit, rewrite code and write and edit documents, keeps the knowledge index in the knowledge folder, lets web_fetch save pages there, lets design_export save images and allows the browser and gui families.",
  },
  {
    name: "allow-command",
    value: "<exe>",
    repeatable: true,
    description:
      "Mount run_command (read-write mode) for this executable: argv only, no shell, in a bubblewrap sandbox where available. Repeat for each executable.",
  },
  {
    name: "searxng",
    value: "<url>",
    description: "Mount web_search over this SearXNG instance (e.g. http://127.0.0.1:8888).",
  },
  {
    name: "allow-host",
    value: "<host>",
    repeatable: true,
    description:
      "Let web_fetch and the browser reach this host although it is private or loopback (127.0.0.1, intranet.example, *.corp.example, host:port). Repeat for each host.",
  },
  {
    name: "knowledge-dir",
    value: "<dir>",
    description:
      "The folder search_knowledge searches, relative to the root and inside it (default: the root itself). Read-write mode keeps its index in <dir>/.knowledge and web_fetch saves pages into <dir>/web-pages; read-only mode writes nothing inside the root (the index goes to $XDG_CACHE_HOME/agentool/knowledge).",
  },
  {
    name: "memory-dir",
    value: "<dir>",
    description:
      "Serve the memory family (memory_write, memory_read, memory_search, memory_list, memory_delete) over a file store in this folder (created when missing; kept across restarts, shared by servers that name the same folder). Without it the memory family is left out.",
  },
  {
    name: "skills-dir",
    value: "<dir>",
    description:
      "Serve the skills family (use_skill, read_skill_file) over the skills in this folder: one <skill>/SKILL.md each, scanned again when a name is unknown; nothing is written. Without it the skills family is left out.",
  },
  {
    name: "gui-xvfb",
    value: "<width>x<height>",
    description:
      "The gui family drives an Xvfb display of this size that the server starts (and stops when it exits) instead of the host's DISPLAY, e.g. --gui-xvfb 1280x800.",
  },
  {
    name: "gui-app",
    value: "<command>",
    description:
      'A program to launch into the --gui-xvfb display, split on spaces and run without a shell, e.g. --gui-app "xterm -geometry 100x30".',
  },
  {
    name: "figma-api-url",
    value: "<url>",
    description:
      "The Figma REST API origin of the design family (default https://api.figma.com; for a self-hosted proxy or a test server, whose host is then let through the SSRF guard). The token comes from FIGMA_API_KEY or FIGMA_ACCESS_TOKEN.",
  },
  {
    name: "http",
    value: "<port>",
    description:
      "Serve Streamable HTTP on this port (0 = any free port) at /mcp instead of stdio; a bearer token is required (unless --no-auth). SSE events carry ids and a retry field; a client that reconnects with Last-Event-ID gets what it missed.",
  },
  {
    name: "host",
    value: "<host>",
    description: `The address --http binds to and accepts in the Host header (default ${DEFAULT_HTTP_HOST}, loopback only).`,
  },
  {
    name: "allow-origin",
    value: "<origin>",
    repeatable: true,
    description:
      "An Origin allowed to call the HTTP server besides http://127.0.0.1:<port> and http://localhost:<port>. Repeat for each origin.",
  },
  {
    name: "token",
    value: "<token>",
    description:
      "The bearer token of --http (better: the AGENTOOL_MCP_TOKEN environment variable, since flags show in ps). Default: a random token printed to stderr.",
  },
  {
    name: "no-auth",
    description:
      "Serve --http without a bearer token. Loopback only: refused unless --host is 127.0.0.0/8, ::1 or localhost; the Host and Origin checks stay. For local test harnesses (the MCP conformance suite), never for a shared machine's users.",
  },
  {
    name: "stateless",
    description:
      "Serve --http without sessions: every POST is answered by a fresh server, so replicas behind a load balancer can answer one client. The root is --root (client roots are not listed), and ask_user, confirm, notify, remember and search_memory are left out (they need a session).",
  },
  {
    name: "session-idle-seconds",
    value: "<seconds>",
    description:
      "Close an --http session after this many seconds with no request and no open SSE stream (default 900, 15 minutes); its client's next request gets 404 and starts a new session. A new session beyond the 64 open closes the least recently active idle one.",
  },
  {
    name: "output-schemas",
    description:
      "List each tool's outputSchema in tools/list (off by default: results still carry structuredContent, and the schemas cost ~1,000 tokens of every model's context while models read the text).",
  },
  {
    name: "fixed-root",
    description: "Ignore the client's MCP roots: always confine to --root.",
  },
  { name: "help", short: "h", description: "Show this help and exit." },
  { name: "version", short: "v", description: "Print the version and exit." },
];
