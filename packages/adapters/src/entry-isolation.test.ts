import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const packageDirectory = fileURLToPath(new URL("..", import.meta.url));

/** A loader hook that makes any LangChain module fail to resolve, naming it. */
const HOOKS = `
const LANGCHAIN = /[\\\\/](?:@langchain|node_modules[\\\\/]langchain)[\\\\/]/;
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (/^(?:@langchain\\/|langchain(?:\\/|$))/.test(specifier) || LANGCHAIN.test(decodeURIComponent(resolved.url))) {
    throw new Error("LangChain module loaded: " + specifier);
  }
  return resolved;
}
`;

let temporaryDirectory = "";
let hooksUrl = "";

function importInFreshNode(entry: string): { status: number | null; output: string } {
  const register = `import { register } from "node:module"; register(${JSON.stringify(hooksUrl)});`;
  const entryUrl = pathToFileURL(join(packageDirectory, "dist", entry, "index.js")).href;
  const child = spawnSync(
    process.execPath,
    [
      "--import",
      `data:text/javascript,${encodeURIComponent(register)}`,
      "--input-type=module",
      "-e",
      "const loaded = await import(process.argv[1]); console.log('exports:', Object.keys(loaded).sort().join(','));",
      entryUrl,
    ],
    { cwd: packageDirectory, encoding: "utf8", timeout: 30_000 },
  );
  return { status: child.status, output: `${child.stdout}${child.stderr}` };
}

describe("provider entries do not load LangChain", () => {
  beforeAll(() => {
    temporaryDirectory = mkdtempSync(join(tmpdir(), "agentool-adapters-"));
    const hooksPath = join(temporaryDirectory, "block-langchain.mjs");
    writeFileSync(hooksPath, HOOKS);
    hooksUrl = pathToFileURL(hooksPath).href;
  });

  afterAll(() => {
    if (temporaryDirectory !== "") rmSync(temporaryDirectory, { recursive: true, force: true });
  });

  it.each([
    [
      "openai",
      "MAX_COMPUTER_STEPS_PER_CALL,OPENAI_SCROLL_PIXELS_PER_CLICK,createOpenAiToolDispatcher,defaultRequireApproval,fromOpenAiComputerAction,toOpenAiComputerTool,toOpenAiTools",
    ],
    [
      "anthropic",
      "ANTHROPIC_COMPUTER_BETAS,createAnthropicToolDispatcher,defaultRequireApproval,fromAnthropicComputerInput,toAnthropicComputerInput,toAnthropicComputerTool,toAnthropicTools",
    ],
    ["gemini", "createGeminiToolDispatcher,defaultRequireApproval,toGeminiTools"],
  ])("imports dist/%s without resolving any LangChain module", (entry, exports) => {
    const { status, output } = importInFreshNode(entry);
    expect(output).not.toContain("LangChain module loaded");
    expect(status).toBe(0);
    expect(output).toContain(`exports: ${exports}`);
  });

  it("the hook does catch LangChain: dist/langchain fails under it", () => {
    const { status, output } = importInFreshNode("langchain");
    expect(status).not.toBe(0);
    expect(output).toContain("LangChain module loaded: @langchain/core");
  });
});
