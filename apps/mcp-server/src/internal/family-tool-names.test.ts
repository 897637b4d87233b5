import { CODE_READ_TOOL_NAMES, CODE_WRITE_TOOL_NAMES } from "@agentool/tools-code";
import { THINK_TOOL_NAME, UPDATE_PLAN_TOOL_NAME } from "@agentool/tools-core";
import {
  DESIGN_EXPORT_TOOL_NAME,
  DESIGN_FIGMA_TOOL_NAMES,
  DESIGN_OFFLINE_TOOL_NAMES,
  DESIGN_READ_TOOL_NAME,
  DESIGN_TOKENS_TOOL_NAME,
} from "@agentool/tools-design";
import { fsToolNames } from "@agentool/tools-fs";
import { RUN_COMMAND_TOOL_NAME } from "@agentool/tools-fs/node";
import { GIT_READ_TOOL_NAMES, GIT_WRITE_TOOL_NAMES } from "@agentool/tools-git";
import { COMPUTER_TOOL_NAME } from "@agentool/tools-gui";
import { ASK_USER_TOOL_NAME, CONFIRM_TOOL_NAME, NOTIFY_TOOL_NAME } from "@agentool/tools-interact";
import {
  MEMORY_TOOL_NAME_LIST,
  REMEMBER_TOOL_NAME,
  SEARCH_KNOWLEDGE_TOOL_NAME,
  SKILL_TOOL_NAMES,
} from "@agentool/tools-knowledge";
import { CORPUS_INDEX_FOLDER } from "@agentool/tools-knowledge/node";
import { OFFICE_READ_TOOL_NAMES, OFFICE_WRITE_TOOL_NAMES } from "@agentool/tools-office";
import { PREVIEW_TOOL_NAME } from "@agentool/tools-preview";
import { BROWSER_TOOL_NAME } from "@agentool/tools-preview/browser";
import {
  WEB_FETCH_TOOL_NAME,
  WEB_SEARCH_TOOL_NAME,
  WIKI_SEARCH_TOOL_NAME,
} from "@agentool/tools-web";
import { describe, expect, it } from "vitest";
import {
  BROWSER_NAME,
  CODE_READ_NAMES,
  CODE_WRITE_NAMES,
  CORE_TOOL_NAMES,
  DESIGN_EXPORT_NAME,
  DESIGN_FIGMA_READ_NAMES,
  DESIGN_OFFLINE_NAMES,
  FS_READ_TOOL_NAMES,
  FS_WRITE_TOOL_NAMES,
  GIT_READ_NAMES,
  GIT_WRITE_NAMES,
  GUI_NAME,
  INTERACT_NAMES,
  KNOWLEDGE_INDEX_FOLDER,
  KNOWLEDGE_NAMES,
  MEMORY_NAMES,
  OFFICE_READ_NAMES,
  OFFICE_WRITE_NAMES,
  PREVIEW_NAME,
  RUN_COMMAND_NAME,
  SKILL_NAMES,
  WEB_NAMES,
} from "./family-tool-names.js";

describe("family tool names written out for the lazy server", () => {
  it("equal the names the family packages export", () => {
    expect(CORE_TOOL_NAMES).toEqual([THINK_TOOL_NAME, UPDATE_PLAN_TOOL_NAME]);
    expect(FS_READ_TOOL_NAMES).toEqual(fsToolNames({ mode: "read-only" }));
    expect([...FS_READ_TOOL_NAMES, ...FS_WRITE_TOOL_NAMES]).toEqual(
      fsToolNames({ mode: "read-write" }),
    );
    expect(RUN_COMMAND_NAME).toBe(RUN_COMMAND_TOOL_NAME);
    expect(GIT_READ_NAMES).toEqual(GIT_READ_TOOL_NAMES);
    expect(GIT_WRITE_NAMES).toEqual(GIT_WRITE_TOOL_NAMES);
    expect(CODE_READ_NAMES).toEqual(CODE_READ_TOOL_NAMES);
    expect(CODE_WRITE_NAMES).toEqual(CODE_WRITE_TOOL_NAMES);
    expect(OFFICE_READ_NAMES).toEqual(OFFICE_READ_TOOL_NAMES);
    expect(OFFICE_WRITE_NAMES).toEqual(OFFICE_WRITE_TOOL_NAMES);
    expect(DESIGN_OFFLINE_NAMES).toEqual(DESIGN_OFFLINE_TOOL_NAMES);
    expect(DESIGN_FIGMA_READ_NAMES).toEqual([DESIGN_READ_TOOL_NAME, DESIGN_TOKENS_TOOL_NAME]);
    expect(DESIGN_EXPORT_NAME).toBe(DESIGN_EXPORT_TOOL_NAME);
    expect([...DESIGN_FIGMA_READ_NAMES, DESIGN_EXPORT_NAME]).toEqual(DESIGN_FIGMA_TOOL_NAMES);
    expect(WEB_NAMES).toEqual({
      search: WEB_SEARCH_TOOL_NAME,
      wiki: WIKI_SEARCH_TOOL_NAME,
      fetch: WEB_FETCH_TOOL_NAME,
    });
    expect(KNOWLEDGE_NAMES).toEqual({
      searchKnowledge: SEARCH_KNOWLEDGE_TOOL_NAME,
      remember: REMEMBER_TOOL_NAME,
    });
    expect(MEMORY_NAMES).toEqual(MEMORY_TOOL_NAME_LIST);
    expect(SKILL_NAMES).toEqual(SKILL_TOOL_NAMES);
    expect(PREVIEW_NAME).toBe(PREVIEW_TOOL_NAME);
    expect(BROWSER_NAME).toBe(BROWSER_TOOL_NAME);
    expect(GUI_NAME).toBe(COMPUTER_TOOL_NAME);
    expect(INTERACT_NAMES).toEqual({
      askUser: ASK_USER_TOOL_NAME,
      confirm: CONFIRM_TOOL_NAME,
      notify: NOTIFY_TOOL_NAME,
    });
    expect(KNOWLEDGE_INDEX_FOLDER).toBe(CORPUS_INDEX_FOLDER);
  });
});
