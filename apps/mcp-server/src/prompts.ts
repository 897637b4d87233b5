import {
  formatUseSkillResult,
  READ_SKILL_FILE_TOOL_NAME,
  type SkillSource,
  type UseSkillToolData,
} from "@agentool/tools-knowledge";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  ErrorCode,
  GetPromptRequestSchema,
  type GetPromptResult,
  ListPromptsRequestSchema,
  type ListPromptsResult,
} from "@modelcontextprotocol/sdk/types.js";
import { closestMatch } from "./internal/closest-match.js";

/** The skill source the prompts read: the skills family's registry (it can scan its folder again). */
export interface PromptSkillSource extends SkillSource {
  /** Scans the skills folder again (a skill installed while the server runs is listed). */
  rescan?(): unknown;
}

/**
 * The MCP prompt of a skill's `prompts/get`: the skill's procedure as one user message, rendered
 * as `use_skill` renders it (its name and description, the body of its SKILL.md, its reference
 * files with the `read_skill_file` call that reads one).
 *
 * @param data - the loaded skill, as `use_skill` returns it
 * @returns the prompt result
 * @example
 * skillPrompt(data).messages[0].content.text; // "Skill deploy-service — Roll out…\n\n# Deploy…"
 */
export function skillPrompt(data: UseSkillToolData): GetPromptResult {
  return {
    description: data.description,
    messages: [
      {
        role: "user",
        content: {
          type: "text",
          text: formatUseSkillResult(data, { readSkillFileToolName: READ_SKILL_FILE_TOOL_NAME }),
        },
      },
    ],
  };
}

/**
 * Serves skills as MCP prompts on a low-level SDK server: `prompts/list` lists each skill by
 * name and description (skills take no arguments), `prompts/get` returns its procedure as a user
 * message ({@link skillPrompt}). An unknown name is a JSON-RPC Invalid params error naming the
 * closest skill. The server must declare the `prompts` capability (before connecting).
 *
 * @param server - the low-level server (`McpServer.server`)
 * @param skills - the skills family's registry
 * @example
 * registerSkillPrompts(mcpServer.server, new SkillRegistry(".agents/skills"));
 */
export function registerSkillPrompts(server: Server, skills: PromptSkillSource): void {
  server.setRequestHandler(ListPromptsRequestSchema, (): ListPromptsResult => {
    skills.rescan?.();
    return {
      prompts: skills.menu().map((skill) => ({
        name: skill.name,
        title: skill.name,
        description: skill.description,
      })),
    };
  });
  server.setRequestHandler(GetPromptRequestSchema, async (request, extra) => {
    const name = request.params.name;
    const skill = await skills.loadSkill(name, { signal: extra.signal });
    if (skill === undefined) {
      const names = skills.menu().map((entry) => entry.name);
      const closest = closestMatch(name, names);
      // A plain error with a code: the SDK sends its message as is (McpError's message carries
      // an "MCP error -32602: " prefix, which the client's McpError would add a second time).
      throw Object.assign(
        new Error(
          `Unknown prompt: ${JSON.stringify(name)}.${closest === undefined ? "" : ` Did you mean ${JSON.stringify(closest)}?`} Prompts: ${names.length === 0 ? "none (no skills are installed)" : names.join(", ")}.`,
        ),
        { code: ErrorCode.InvalidParams },
      );
    }
    return skillPrompt({
      name: skill.name,
      description: skill.description,
      body: skill.body,
      body_start_line: skill.bodyStartLine,
      files: skill.files.map((file) => ({ ...file })),
      files_total: skill.filesTotal,
      ...(skill.filesAtLeast ? { files_total_at_least: true as const } : {}),
    });
  });
}
