import { browserFamily } from "./browser.js";
import { codeFamily } from "./code.js";
import { coreFamily } from "./core.js";
import type { DemoFamily } from "./demo-family.js";
import { designFamily } from "./design.js";
import { filesFamily } from "./files.js";
import { gitFamily } from "./git.js";
import { guiFamily } from "./gui.js";
import { interactFamily } from "./interact.js";
import { knowledgeFamily } from "./knowledge.js";
import { memoryFamily } from "./memory.js";
import { officeFamily } from "./office.js";
import { previewFamily } from "./preview.js";
import { skillsFamily } from "./skills.js";
import { webFamily } from "./web.js";

/** Every family the demo runs, in the order their tasks appear in the scripted plan. */
export const DEMO_FAMILIES: readonly DemoFamily[] = [
  coreFamily,
  memoryFamily,
  interactFamily,
  filesFamily,
  gitFamily,
  codeFamily,
  officeFamily,
  webFamily,
  knowledgeFamily,
  skillsFamily,
  previewFamily,
  browserFamily,
  designFamily,
  guiFamily,
];
