import { isAbsolute } from "node:path";
import { errorMessage } from "@agentool/contract";
import type { FamilyName } from "../family-names.js";
import { UsageError } from "../usage-error.js";
import type { FlagValues } from "./flag-values.js";
import { parseFigmaApiUrl } from "./gui-design-flags.js";
import { normalizeKnowledgeDir } from "./knowledge-folder-paths.js";

/** A flag that configures a family: refused without it; `needed` when the family cannot run without the flag. */
interface FamilyFlag {
  flag: string;
  family: FamilyName;
  /** Another family the flag configures too (refused only when neither is served). */
  alsoFamily?: FamilyName;
  /** The message when the family was chosen with --families but the flag is missing. */
  needed?: string;
  /** A further check of the value once its family is there. */
  check?: (value: string) => void;
}

/** Flags that configure a family, checked in this order. */
const FAMILY_FLAGS: readonly FamilyFlag[] = [
  { flag: "searxng", family: "web" },
  // One guarded transport policy: --allow-host opens the same hosts to web_fetch and the browser.
  { flag: "allow-host", family: "web", alsoFamily: "browser" },
  {
    flag: "knowledge-dir",
    family: "knowledge",
    check: (knowledgeDir) => {
      try {
        // Lexical checks now (`..` above the root, `~`, NUL); an absolute path is checked against --root later.
        if (!isAbsolute(knowledgeDir.trim())) normalizeKnowledgeDir(knowledgeDir);
      } catch (error) {
        throw new UsageError(errorMessage(error));
      }
    },
  },
  {
    flag: "memory-dir",
    family: "memory",
    needed:
      "The memory family keeps its memories in a folder: add --memory-dir <dir> (e.g. --memory-dir ~/.agentool/memory) or drop memory from --families.",
  },
  {
    flag: "skills-dir",
    family: "skills",
    needed:
      "The skills family serves the skills of a folder: add --skills-dir <dir> (e.g. --skills-dir .agents/skills) or drop skills from --families.",
  },
  { flag: "gui-xvfb", family: "gui" },
  { flag: "gui-app", family: "gui" },
  { flag: "figma-api-url", family: "design", check: parseFigmaApiUrl },
];

/** Each flag of {@link FAMILY_FLAGS} needs its family; a family chosen with --families may need its flag. */
export function checkFamilyFlags(flags: FlagValues, families: readonly FamilyName[]): void {
  for (const { flag, family, alsoFamily, needed, check } of FAMILY_FLAGS) {
    const value = flags.one(flag);
    const served =
      families.includes(family) || (alsoFamily !== undefined && families.includes(alsoFamily));
    if (value !== undefined && !served) {
      throw new UsageError(
        alsoFamily === undefined
          ? `--${flag} configures the ${family} family: add ${family} to --families or drop --${flag}.`
          : `--${flag} configures the ${family} and ${alsoFamily} families: add ${family} or ${alsoFamily} to --families or drop --${flag}.`,
      );
    }
    if (value !== undefined) check?.(value);
    if (
      needed !== undefined &&
      value === undefined &&
      flags.hasValue("families") &&
      families.includes(family)
    ) {
      throw new UsageError(needed);
    }
  }
}
