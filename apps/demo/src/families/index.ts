import { coreFamily } from "./core.js";
import type { DemoFamily } from "./demo-family.js";
import { filesFamily } from "./files.js";
import { gitFamily } from "./git.js";

/** Every family the demo runs, in the order their tasks appear in the scripted plan. */
export const DEMO_FAMILIES: readonly DemoFamily[] = [coreFamily, filesFamily, gitFamily];
