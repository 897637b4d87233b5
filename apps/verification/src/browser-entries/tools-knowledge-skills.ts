// @agentool/tools-knowledge/skills in the browser: use_skill and read_skill_file over an
// in-memory SkillSource (the seam a browser app implements), parsed with parseSkillFile.
import {
  createSkillTools,
  type LoadedSkill,
  parseSkillFile,
  type SkillFileRead,
  type SkillSource,
} from "@agentool/tools-knowledge/skills";
import { type BrowserToolCall, callTool, findTool } from "./call-tool.js";

const SKILL_TEXT = [
  "---",
  "name: brew-tea",
  "description: Brews a pot of tea. Use when the user asks for tea.",
  "---",
  "# Brew tea",
  "",
  "1. Boil water.",
  "2. Follow references/steps.md.",
  "",
].join("\n");

const STEPS = "Warm the pot.\nAdd one spoon per cup.\nSteep four minutes.\n";

/** One skill held in memory; every other name or path is refused as the seam says. */
function memorySkills(): SkillSource {
  const parsed = parseSkillFile(SKILL_TEXT);
  if (!parsed.ok) throw new Error(`the skill does not parse: ${JSON.stringify(parsed)}`);
  const skill: LoadedSkill = {
    name: parsed.skill.name,
    description: parsed.skill.description,
    body: parsed.skill.body,
    bodyStartLine: parsed.skill.bodyStartLine,
    files: [{ path: "references/steps.md", bytes: STEPS.length, lines: 3 }],
    filesTotal: 1,
    filesAtLeast: false,
  };
  return {
    menu: () => [{ name: skill.name, description: skill.description }],
    loadSkill: async (name) => (name === skill.name ? skill : undefined),
    readSkillFile: async (name, path): Promise<SkillFileRead> => {
      if (name !== skill.name) return { ok: false, problem: "unknown_skill", detail: name };
      if (path !== "references/steps.md")
        return { ok: false, problem: "not_found", detail: path, path };
      return { ok: true, path, text: STEPS, bytes: STEPS.length };
    },
  };
}

/**
 * Loads the skill and reads its file.
 *
 * @returns the calls: `use`, `read`
 */
export default async function run(): Promise<{ calls: Record<string, BrowserToolCall> }> {
  const tools = createSkillTools({ registry: memorySkills() });
  return {
    calls: {
      use: await callTool(findTool(tools, "use_skill"), { name: "brew-tea" }),
      read: await callTool(findTool(tools, "read_skill_file"), {
        skill: "brew-tea",
        path: "references/steps.md",
      }),
    },
  };
}
