import * as code from "@agentool/tools-code";
import * as core from "@agentool/tools-core";
import * as design from "@agentool/tools-design";
import * as fs from "@agentool/tools-fs/node";
import * as git from "@agentool/tools-git";
import * as gui from "@agentool/tools-gui";
import * as interact from "@agentool/tools-interact";
import * as knowledgeIndex from "@agentool/tools-knowledge";
import * as knowledgeNode from "@agentool/tools-knowledge/node";
import * as office from "@agentool/tools-office";
import * as browser from "@agentool/tools-preview/browser";
import * as preview from "@agentool/tools-preview/node";
import * as webIndex from "@agentool/tools-web";
import * as webNode from "@agentool/tools-web/node";
import * as saver from "../knowledge-folder.js";
import * as resources from "../knowledge-resources.js";
import * as prompts from "../prompts.js";
import * as skillTools from "../skill-tools.js";
import type { FamilyModules } from "./family-modules.js";

/**
 * Every family's modules, imported statically: what `createAgentoolMcpServer` and `buildToolSet`
 * build from (the library keeps building every tool at creation, as before).
 */
export const EAGER_FAMILY_MODULES: Required<FamilyModules> = Object.freeze({
  core,
  fs,
  git,
  code,
  office,
  design: { index: design, webNode },
  web: { index: webIndex, node: webNode, saver },
  knowledge: { index: knowledgeIndex, resources },
  memory: { index: knowledgeIndex, node: knowledgeNode },
  skills: { tools: skillTools, prompts },
  interact,
  preview,
  browser: { index: browser, web: webIndex, webNode },
  gui,
});
