import type { RecordedFigmaFile } from "../testing/recorded-figma-files.js";
import { DESIGN_SYSTEM_FILE_KEY, designSystemFile } from "./figma-design-system-file.js";
import {
  SHOP_FILE_KEY,
  shopFile,
  shopStyleNodes,
  shopStyles,
  shopVariables,
} from "./figma-shop-file.js";

/**
 * The typed fixtures as the recordings shipped under `recordings/` (gzipped JSON, one file each):
 * what `@agentool/tools-design/testing`'s server answers and what bench/design.mjs serves to both
 * design readers (plain Node there cannot load these TypeScript modules).
 * `recorded-files.test.ts` holds the JSON equal to them.
 */
export const RECORDED_FIXTURES: ReadonlyArray<{ name: string; recorded: RecordedFigmaFile }> = [
  {
    name: "shop-checkout.json.gz",
    recorded: {
      key: SHOP_FILE_KEY,
      file: shopFile,
      styles: shopStyles,
      variables: shopVariables,
      styleNodes: shopStyleNodes,
    },
  },
  {
    name: "design-system.json.gz",
    recorded: { key: DESIGN_SYSTEM_FILE_KEY, file: designSystemFile },
  },
];
