import { renderSkillMenu, type SkillSummary } from "@agentool/tools-knowledge";
import { createMiddleware } from "langchain";

/** What the middleware needs of a skill registry (`SkillRegistry` from `@agentool/tools-knowledge/node`). */
export interface SkillMenuSource {
  /** Scans the skills folder again (picks up skills installed since the last call). */
  rescan(): unknown;
  /** The skills, sorted by name. */
  menu(): SkillSummary[];
}

/**
 * The live skill menu in the system message — the recipe of `@agentool/tools-knowledge`'s README:
 * before every model call the registry is scanned again and `renderSkillMenu(registry.menu())` is
 * appended to the leading system message, so a skill installed mid-session appears on the next
 * model call. The menu is byte-stable (sorted, one line per skill), so the prompt — and a
 * provider's prompt cache — only moves when a skill is added, removed or re-described. With no
 * skills nothing is appended.
 *
 * @param registry - the skill registry the `use_skill` tool reads
 * @returns a `createAgent` middleware
 * @example
 * const agent = createAgent({ model, tools, systemPrompt, middleware: [createSkillMenuMiddleware(registry)] });
 */
export function createSkillMenuMiddleware(registry: SkillMenuSource) {
  return createMiddleware({
    name: "SkillMenu",
    wrapModelCall: (request, handler) => {
      registry.rescan();
      const menu = renderSkillMenu(registry.menu());
      if (menu === "") return handler(request);
      return handler({ ...request, systemMessage: request.systemMessage.concat(`\n\n${menu}`) });
    },
  });
}
