import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { AgentoolError, parseOptions } from "@agentool/contract";
import { FAMILY_NAMES, type FamilyName } from "../family-names.js";
import type { KnowledgeResources } from "../knowledge-resources.js";
import { resolveRoot } from "../resolve-root.js";
import {
  type AgentoolMcpServerOptions,
  agentoolMcpServerOptionsSchema,
  DEFAULT_ROOTS_TIMEOUT_MS,
} from "../server-options.js";
import type { ToolSetConfiguration } from "../tool-sets.js";
import { defaultLog } from "./default-log.js";
import { normalizeKnowledgeDir, resolveKnowledgeFolder } from "./knowledge-folder-paths.js";

/** The options of `createAgentoolMcpServer`, checked as a whole and resolved. */
export interface ServerConfiguration {
  /** What every tool set of the server is built from. */
  configuration: ToolSetConfiguration;
  /** The families served. */
  families: readonly FamilyName[];
  /** The real path of `root`, used when the client sends no roots. */
  fallbackRoot: string | undefined;
  /** Whether the client's roots are ignored. */
  fixedRoot: boolean;
  /** The skills folder (absolute), when the skills family is served. */
  skillsDirectory: string | undefined;
  /** Whether the server answers one request and keeps nothing. */
  stateless: boolean;
  /** How long a `roots/list` request may take. */
  rootsTimeoutMs: number;
  /** Knowledge resources shared with other servers (not closed by this one). */
  sharedKnowledge: KnowledgeResources | undefined;
  /** Where log lines go. */
  log: (line: string) => void;
}

function refuse(message: string): never {
  throw new AgentoolError(`createAgentoolMcpServer: ${message}`);
}

/**
 * By default every family but code, office and design (opt-in: their tools cost tokens every
 * conversation pays), browser (opt-in: the live web) and gui (opt-in: a desktop), memory and
 * skills only when they have a folder; each folder needs its family.
 */
function chooseFamilies(parsed: AgentoolMcpServerOptions): readonly FamilyName[] {
  if (parsed.memoryDir === undefined && parsed.families?.includes("memory") === true) {
    refuse("the memory family keeps its memories in a folder: pass memoryDir.");
  }
  if (parsed.skillsDir === undefined && parsed.families?.includes("skills") === true) {
    refuse("the skills family serves the skills of a folder: pass skillsDir.");
  }
  const families =
    parsed.families ??
    FAMILY_NAMES.filter(
      (name) =>
        name !== "code" &&
        name !== "office" &&
        name !== "design" &&
        name !== "browser" &&
        name !== "gui" &&
        (name !== "memory" || parsed.memoryDir !== undefined) &&
        (name !== "skills" || parsed.skillsDir !== undefined),
    );
  if (parsed.skillsDir !== undefined && !families.includes("skills")) {
    refuse("skillsDir configures the skills family: add it to families.");
  }
  if (parsed.memoryDir !== undefined && !families.includes("memory")) {
    refuse("memoryDir configures the memory family: add it to families.");
  }
  return families;
}

/** gui needs read-write mode and a display; the display and the Figma options need their family. */
function checkGuiAndDesign(
  parsed: AgentoolMcpServerOptions,
  families: readonly FamilyName[],
  mode: string,
): void {
  if (families.includes("gui") && mode !== "read-write") {
    refuse(
      'the gui family drives a desktop with the mouse and keyboard (anything its user can do): it needs mode: "read-write".',
    );
  }
  if (families.includes("gui") && parsed.guiDisplay === undefined) {
    refuse(
      "the gui family drives a display: pass guiDisplay (startXvfbDisplay or connectX11Display of @agentool/tools-gui/node).",
    );
  }
  if (parsed.guiDisplay !== undefined && !families.includes("gui")) {
    refuse("guiDisplay configures the gui family: add it to families.");
  }
  for (const option of ["figmaToken", "figmaApiUrl"] as const) {
    if (parsed[option] !== undefined && !families.includes("design")) {
      refuse(`${option} configures the design family: add it to families.`);
    }
  }
}

/** The knowledge folder relative to the root (`""`: the root itself); one that leaves `root` is refused. */
function knowledgeFolderOf(
  parsed: AgentoolMcpServerOptions,
  families: readonly FamilyName[],
  fallbackRoot: string | undefined,
): string {
  if (parsed.knowledgeDir !== undefined && !families.includes("knowledge")) {
    refuse("knowledgeDir configures the knowledge family: add it to families.");
  }
  const knowledgeDir =
    parsed.knowledgeDir === undefined
      ? ""
      : normalizeKnowledgeDir(
          parsed.knowledgeDir,
          parsed.root === undefined || fallbackRoot === undefined
            ? []
            : [resolve(parsed.root), fallbackRoot],
        );
  // A --knowledge-dir that leaves --root (through a symlink) is refused at start.
  if (fallbackRoot !== undefined && families.includes("knowledge")) {
    resolveKnowledgeFolder(fallbackRoot, knowledgeDir, "--root");
  }
  return knowledgeDir;
}

/**
 * Parses and checks `createAgentoolMcpServer`'s options (a folder without its family, a family
 * without its folder, `allowCommands` without read-write fs, `fixedRoot` without a root), creates
 * the memory folder, and resolves the root, the knowledge folder and the tool-set configuration.
 *
 * @param options - what the caller passed
 * @returns the resolved configuration
 * @throws AgentoolError for invalid options or a root that is missing or not a directory
 */
export function resolveServerConfiguration(options: AgentoolMcpServerOptions): ServerConfiguration {
  const parsed = parseOptions("createAgentoolMcpServer", agentoolMcpServerOptionsSchema, options);
  const families = chooseFamilies(parsed);
  const skillsDirectory = parsed.skillsDir === undefined ? undefined : resolve(parsed.skillsDir);
  const memoryDirectory = parsed.memoryDir === undefined ? undefined : resolve(parsed.memoryDir);
  if (memoryDirectory !== undefined) mkdirSync(memoryDirectory, { recursive: true });
  const mode = parsed.mode ?? "read-only";
  const allowCommands = parsed.allowCommands ?? [];
  if (allowCommands.length > 0 && (mode !== "read-write" || !families.includes("fs"))) {
    refuse('allowCommands mounts run_command, which needs mode: "read-write" and the fs family.');
  }
  if (families.includes("browser") && mode !== "read-write") {
    refuse(
      'the browser family acts on the live web (fills forms, clicks, posts): it needs mode: "read-write".',
    );
  }
  checkGuiAndDesign(parsed, families, mode);
  if (parsed.fixedRoot === true && parsed.root === undefined) {
    refuse("fixedRoot needs a root to confine to.");
  }
  const fallbackRoot = parsed.root === undefined ? undefined : resolveRoot(parsed.root, "--root");
  const knowledgeDir = knowledgeFolderOf(parsed, families, fallbackRoot);
  const configuration: ToolSetConfiguration = {
    families,
    mode,
    allowCommands,
    searxng: parsed.searxng,
    allowHosts: parsed.allowHosts ?? [],
    knowledgeDir,
    ...(memoryDirectory === undefined ? {} : { memoryDirectory }),
    ...(skillsDirectory === undefined ? {} : { skillsDirectory }),
    ...(parsed.knowledgeCacheDirectory === undefined
      ? {}
      : { knowledgeCacheDirectory: parsed.knowledgeCacheDirectory }),
    ...(parsed.guiDisplay === undefined ? {} : { guiDisplay: parsed.guiDisplay }),
    ...(parsed.figmaToken === undefined ? {} : { figmaToken: parsed.figmaToken }),
    ...(parsed.figmaApiUrl === undefined ? {} : { figmaApiUrl: parsed.figmaApiUrl }),
    ...(parsed.stateless === true ? { stateless: true } : {}),
    ...(parsed.outputSchemas === true ? { outputSchemas: true } : {}),
  };
  return {
    configuration,
    families,
    fallbackRoot,
    fixedRoot: parsed.fixedRoot === true,
    skillsDirectory,
    stateless: parsed.stateless === true,
    rootsTimeoutMs: parsed.rootsTimeoutMs ?? DEFAULT_ROOTS_TIMEOUT_MS,
    sharedKnowledge: parsed.knowledgeResources,
    log: parsed.log ?? defaultLog,
  };
}
