/**
 * Which server scenarios of the official MCP conformance suite (@modelcontextprotocol/conformance
 * 0.1.16) apply to agentool-mcp, and why the others do not. conformance.int.test.ts holds every
 * scenario the suite lists to this file, and the "Tested with real clients" section of the
 * mcp-server README to the same lists.
 */

/** A scenario that applies: it must pass. */
export interface ApplicableScenario {
  scenario: string;
  /** Whether it applies over stdio too (false: it tests the HTTP transport itself). */
  overStdio: boolean;
}

/** A scenario that does not apply, the reason, and the failure that shows the reason holds. */
export interface NotApplicableScenario {
  scenario: string;
  reason: string;
  /** Matched against the scenario's check messages: the failure is the one the reason predicts. */
  failsWith: RegExp;
}

/** The scenarios that apply to agentool-mcp (served with --skills-dir, so prompts are listed). */
export const APPLICABLE_SCENARIOS: readonly ApplicableScenario[] = [
  { scenario: "server-initialize", overStdio: true },
  { scenario: "ping", overStdio: true },
  { scenario: "logging-set-level", overStdio: true },
  { scenario: "tools-list", overStdio: true },
  { scenario: "prompts-list", overStdio: true },
  { scenario: "server-sse-multiple-streams", overStdio: false },
  { scenario: "dns-rebinding-protection", overStdio: false },
];

const FIXTURE_TOOL =
  "calls the suite's fixture tool `{name}` of its reference server; agentool serves its own tools (exercised by the LangChain, AI SDK and Inspector tests)";

function fixtureTool(scenario: string, tool: string, note = ""): NotApplicableScenario {
  return {
    scenario,
    reason: `${FIXTURE_TOOL.replace("{name}", tool)}${note}`,
    failsWith: new RegExp(`Unknown tool: \\\\?"${tool}\\\\?"|Tool '${tool}' not found`),
  };
}

const NO_RESOURCES = "agentool serves no MCP resources (no `resources` capability)";

function noResources(scenario: string): NotApplicableScenario {
  return { scenario, reason: NO_RESOURCES, failsWith: /Method not found/ };
}

function fixturePrompt(scenario: string, prompt: string): NotApplicableScenario {
  return {
    scenario,
    reason: `gets the suite's fixture prompt \`${prompt}\`; agentool's prompts are its skills (kebab-case names, no arguments, one text message), so no such prompt can exist — prompts/get of a skill is tested by the Inspector test`,
    failsWith: new RegExp(`Unknown prompt: \\\\?"${prompt}\\\\?"`),
  };
}

/** The scenarios that do not apply, each with its reason. */
export const NOT_APPLICABLE_SCENARIOS: readonly NotApplicableScenario[] = [
  {
    scenario: "completion-complete",
    reason:
      "agentool declares no `completions` capability: its prompts (skills) take no arguments, so there is nothing to complete; completion/complete is answered Method not found",
    failsWith: /Method not found/,
  },
  fixtureTool("tools-call-simple-text", "test_simple_text"),
  fixtureTool("tools-call-image", "test_image_content"),
  fixtureTool("tools-call-audio", "test_audio_content"),
  fixtureTool("tools-call-embedded-resource", "test_embedded_resource"),
  fixtureTool("tools-call-mixed-content", "test_multiple_content_types"),
  fixtureTool("tools-call-with-logging", "test_tool_with_logging"),
  fixtureTool("tools-call-error", "test_error_handling"),
  fixtureTool(
    "tools-call-with-progress",
    "test_tool_with_progress",
    " (our progress notifications: progress-cancellation.int.test.ts)",
  ),
  fixtureTool(
    "tools-call-sampling",
    "test_sampling",
    " (agentool never asks the client to sample)",
  ),
  fixtureTool("tools-call-elicitation", "test_elicitation"),
  fixtureTool("elicitation-sep1034-defaults", "test_elicitation_sep1034_defaults"),
  fixtureTool("elicitation-sep1330-enums", "test_elicitation_sep1330_enums"),
  fixtureTool("json-schema-2020-12", "json_schema_2020_12_tool"),
  fixtureTool(
    "server-sse-polling",
    "test_reconnection",
    " (our resumable SSE: resumable-sse.int.test.ts)",
  ),
  noResources("resources-list"),
  noResources("resources-read-text"),
  noResources("resources-read-binary"),
  noResources("resources-templates-read"),
  noResources("resources-subscribe"),
  noResources("resources-unsubscribe"),
  fixturePrompt("prompts-get-simple", "test_simple_prompt"),
  fixturePrompt("prompts-get-with-args", "test_prompt_with_arguments"),
  fixturePrompt("prompts-get-embedded-resource", "test_prompt_with_embedded_resource"),
  fixturePrompt("prompts-get-with-image", "test_prompt_with_image"),
];

/** Why the HTTP-transport scenarios are not run over stdio. */
export const HTTP_ONLY_REASON =
  "tests the Streamable HTTP transport itself (Host checks, SSE streams): over stdio it would test the relay, not agentool";
