import { type AnyTool, isTool, TOOL_NAME_PATTERN } from "../define-tool.js";
import {
  type JsonSchema,
  type JsonValue,
  toGeminiSchema,
  toJsonSchema,
  toOpenAiStrictSchema,
} from "../json-schema.js";
import { fail, isToolResult, type ToolResult } from "../result.js";
import { checkAbsolutePathSample } from "./absolute-path-rule.js";
import {
  AGENTOOL_TOOL_NAMES,
  findAbsentToolNames,
  findForeignMarkers,
  findMarkers,
  findNonSnakeCaseKeys,
} from "./boundary-rules.js";
import { checkWellKnownFieldNames } from "./field-name-rules.js";
import { walkPages } from "./paging-walk.js";
import {
  type Provider,
  validateAnthropicInputSchema,
  validateGeminiSchema,
  validateOpenAiStrictSchema,
  validateToolName,
} from "./provider-rules.js";
import { sampleFromSchema, wrongTypeFor } from "./sample-input.js";
import { findPageDataKeys, findSchemaUnions } from "./schema-rules.js";

/** One way a tool breaks the contract. */
export interface ConformanceViolation {
  /** The tool's name (or `"(list)"` for a problem of the whole list). */
  tool: string;
  /** A short rule id, e.g. `"field-described"`. */
  rule: string;
  /** What is wrong, specifically. */
  message: string;
}

/** What {@link checkConformance} found. */
export interface ConformanceReport {
  /** Every violation; empty when all tools conform. */
  violations: ConformanceViolation[];
  /** The names of the tools checked. */
  checkedTools: string[];
}

/** Options of {@link checkConformance}. */
export interface ConformanceOptions {
  /**
   * A valid input per tool name. With one, the kit also runs the tool for real (expects
   * success) and renders the result. Without one the kit never executes the tool.
   */
  samples?: Record<string, unknown>;
  /** Longest description allowed (providers truncate or refuse long ones). Default 1,024. */
  maxDescriptionLength?: number;
  /** Providers whose schema rules to check. Default all three. */
  providers?: readonly Provider[];
  /**
   * An input per tool name whose result must be cut (more than one page). The kit checks the
   * paging vocabulary on it: `truncated: true`, `next_offset`, `total` or `total_at_least`, a
   * contract marker naming `call <tool> again with … offset=<next_offset>`; then it follows the
   * markers literally to the last page (`walkPages`, at most 40 pages): one marker per page, each
   * repeating every argument of this input besides `offset` (so give only arguments that shape
   * the result), a `total` that never changes, an offset that moves forward, calls that succeed.
   */
  cutSamples?: Record<string, unknown>;
  /**
   * Tools that cut their output without paging (head + tail, like `run_command`): a cut result
   * without `offset` is allowed for them. Every other cut result must be pageable.
   */
  unpaged?: readonly string[];
  /**
   * Read-only tools whose output may differ between two identical calls on an unchanged world
   * (e.g. live search results). Every other read-only tool's sample runs twice and must return
   * the same data and text.
   */
  nondeterministic?: readonly string[];
  /**
   * The workspace root (absolute) the samples' paths are relative to. With it, each read-only
   * tool's sample whose `path` or `path_prefix` is relative runs once more with that path written
   * absolute inside the root, and must succeed too (`absolute-path`: one path rule for every
   * family).
   */
  workspaceRoot?: string;
  /** Tool names to look for in descriptions. Default {@link AGENTOOL_TOOL_NAMES}. */
  knownToolNames?: readonly string[];
  /**
   * Names mounted beside the checked tools but not in the list (when checking part of a set);
   * descriptions may name them.
   */
  alsoMounted?: readonly string[];
}

const SNAKE_CASE = /^[a-z][a-z0-9_]*$/;

function isObject(value: unknown): value is JsonSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function walkProperties(
  schema: JsonSchema,
  visit: (key: string, property: JsonSchema, path: string) => void,
  path = "",
): void {
  const properties = isObject(schema.properties) ? schema.properties : {};
  for (const [key, property] of Object.entries(properties)) {
    if (!isObject(property)) continue;
    const here = path.length === 0 ? key : `${path}.${key}`;
    visit(key, property, here);
    walkProperties(property, visit, here);
    if (isObject(property.items)) walkProperties(property.items, visit, `${here}[]`);
    for (const option of Array.isArray(property.anyOf) ? property.anyOf : []) {
      if (isObject(option)) walkProperties(option, visit, here);
    }
  }
}

async function runSafely(tool: AnyTool, input: unknown, signal?: AbortSignal): Promise<unknown> {
  try {
    return await tool.run(input, signal ? { signal } : {});
  } catch (error) {
    return { thrown: error instanceof Error ? error.message : String(error) };
  }
}

function describeOutcome(value: unknown): string {
  if (isToolResult(value))
    return value.success ? "success" : `${value.error.code}: ${value.error.message}`;
  if (isObject(value) && typeof value.thrown === "string") return `a rejection (${value.thrown})`;
  return `a malformed result ${JSON.stringify(value)?.slice(0, 200)}`;
}

function renderedText(tool: AnyTool, result: ToolResult<unknown>): string {
  const content = tool.renderResult(result);
  if (typeof content === "string") return content;
  return content.map((block) => (block.type === "text" ? block.text : "")).join("\n");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function hasField(tool: AnyTool, field: string): boolean {
  return Object.hasOwn(tool.input.shape as Record<string, unknown>, field);
}

/**
 * The declared output schema on one result's data: it must parse, and parsing must drop nothing
 * (an MCP client validates `structuredContent` against `outputSchema`, which forbids extra keys).
 */
function checkOutputSchema(
  output: NonNullable<AnyTool["output"]>,
  data: unknown,
  label: string,
  report: (rule: string, message: string) => void,
): void {
  const parsed = output.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    report(
      "output-schema",
      `the ${label}'s data does not match the declared output schema${issue === undefined ? "" : ` at ${issue.path.join(".") || "(root)"}: ${issue.message}`}`,
    );
    return;
  }
  if (JSON.stringify(parsed.data) !== JSON.stringify(data)) {
    report(
      "output-schema",
      `the ${label}'s data has keys the declared output schema does not list (parsing dropped them); declare every key`,
    );
  }
}

/** The boundary rules on one successful result: snake_case data, paging facts, markers. */
async function checkSuccess(
  tool: AnyTool,
  input: unknown,
  result: ToolResult<unknown> & { success: true },
  mounted: ReadonlySet<string>,
  options: ConformanceOptions,
  expectCut: boolean,
  report: (rule: string, message: string) => void,
): Promise<void> {
  const label = expectCut ? "cut sample" : "sample";
  for (const key of findNonSnakeCaseKeys(result.data)) {
    report("data-snake-case", `the ${label}'s data key ${key} is not snake_case`);
  }
  if (tool.output !== undefined) checkOutputSchema(tool.output, result.data, label, report);
  let text: string;
  try {
    text = renderedText(tool, result);
  } catch (error) {
    report(
      "render",
      `rendering a success threw: ${error instanceof Error ? error.message : String(error)}`,
    );
    return;
  }
  if (text.trim().length === 0)
    report("render", "a success rendered as empty content; say what happened");
  for (const snippet of findForeignMarkers(text)) {
    report(
      "marker",
      `the ${label}'s text has a truncation note that is not the contract's marker (use formatPageMarker / formatTruncationMarker): ${JSON.stringify(snippet)}`,
    );
  }
  const markers = findMarkers(text);
  for (const { marker, next } of markers) {
    if (next !== undefined && !mounted.has(next.tool)) {
      report(
        "marker",
        `the marker ${JSON.stringify(marker)} names ${next.tool}, which is not mounted`,
      );
    }
  }
  const data = isRecord(result.data) ? result.data : undefined;
  const truncated = data?.truncated;
  if (data !== undefined && "truncated" in data && typeof truncated !== "boolean") {
    report("paging", `data.truncated must be a boolean, got ${JSON.stringify(truncated)}`);
  }
  if (data !== undefined && data.next_offset !== undefined && truncated !== true) {
    report("paging", "data.next_offset is set but data.truncated is not true");
  }
  if (expectCut && truncated !== true) {
    report(
      "paging",
      `the cut sample must return data.truncated: true, got ${JSON.stringify(truncated)}`,
    );
    return;
  }
  if (truncated !== true || data === undefined) return;
  if (!hasField(tool, "offset")) {
    if (!(options.unpaged ?? []).includes(tool.name)) {
      report(
        "paging",
        "the result is cut but the tool takes no offset: the rest is unreachable (add offset/limit, or list the tool in unpaged when it keeps head and tail)",
      );
    }
    return;
  }
  if (typeof data.total !== "number" && typeof data.total_at_least !== "number") {
    report("paging", "a cut result must carry data.total (or data.total_at_least)");
  }
  if (typeof data.next_offset !== "number") {
    report("paging", "a cut result must carry data.next_offset (the offset of the next page)");
    return;
  }
  const own = markers.filter(
    (item) => item.next?.tool === tool.name && item.next.args.offset !== undefined,
  );
  const matching = own.find((item) => item.next?.args.offset === data.next_offset);
  if (matching === undefined) {
    report(
      "marker",
      `a cut result's text must end with the contract marker naming "call ${tool.name} again with offset=${data.next_offset}", found ${markers.length === 0 ? "no marker" : markers.map((item) => JSON.stringify(item.marker)).join(", ")}`,
    );
    return;
  }
  await walkPages(
    tool,
    { input, result },
    {
      run: (next) => runSafely(tool, next),
      render: (page) => renderedText(tool, page),
      report,
    },
  );
}

async function checkTool(
  tool: AnyTool,
  options: ConformanceOptions,
  mounted: ReadonlySet<string>,
  report: (rule: string, message: string) => void,
): Promise<void> {
  if (!TOOL_NAME_PATTERN.test(tool.name))
    report("name-pattern", `the name must match ${TOOL_NAME_PATTERN}`);
  const description = typeof tool.description === "string" ? tool.description.trim() : "";
  const maxDescription = options.maxDescriptionLength ?? 1024;
  if (description.length < 20)
    report(
      "description",
      "the description must teach the model when and how to use the tool (at least 20 characters)",
    );
  if (description.length > maxDescription)
    report(
      "description",
      `the description is ${description.length} characters; keep it within ${maxDescription}`,
    );
  if (tool.annotations.readOnly === true && tool.annotations.destructive === true) {
    report("annotations", "a tool cannot be both readOnly and destructive");
  }
  for (const dataKey of findPageDataKeys(description)) {
    report(
      "description-names-data-key",
      `the description names ${dataKey}, a data key the model never reads; name what it sees (the marker and its next call)`,
    );
  }
  const known = options.knownToolNames ?? AGENTOOL_TOOL_NAMES;
  const fieldDescriptions = Object.values(
    tool.input.shape as Record<string, { description?: unknown }>,
  )
    .map((field) => (typeof field?.description === "string" ? field.description : ""))
    .join("\n");
  for (const absent of findAbsentToolNames(
    `${description}\n${fieldDescriptions}`,
    mounted,
    known,
  )) {
    report(
      "description-names-absent-tool",
      `the description names ${absent}, which is not mounted beside this tool (build the description from what the factory mounts)`,
    );
  }

  let schema: JsonSchema | undefined;
  try {
    schema = toJsonSchema(tool);
  } catch (error) {
    report(
      "json-schema",
      `toJsonSchema failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (schema !== undefined) {
    const text = JSON.stringify(schema);
    if (text.includes('"$schema"') || text.includes('"$ref"'))
      report("json-schema", "the JSON Schema contains $schema or $ref");
    if (/9007199254740991/.test(text))
      report("json-schema", "the JSON Schema contains ±2^53 bounds");
    if (schema.type !== "object") report("json-schema", 'the input schema must be type "object"');
    for (const problem of findSchemaUnions(schema)) report("no-union", problem);
    await checkWellKnownFieldNames(tool, schema, report);
    walkProperties(schema, (key, property, path) => {
      if (!SNAKE_CASE.test(key)) report("snake-case", `field ${path} is not snake_case`);
      if (typeof property.description !== "string" || property.description.trim().length === 0) {
        report("field-described", `field ${path} has no .describe() text`);
      } else {
        for (const dataKey of findPageDataKeys(property.description)) {
          report(
            "description-names-data-key",
            `field ${path} names ${dataKey}, a data key the model never reads; name what it sees (a cut result ends with a marker naming the next call's offset)`,
          );
        }
      }
    });
    const providers = options.providers ?? ["openai", "anthropic", "gemini"];
    for (const provider of providers) {
      for (const problem of validateToolName(tool.name, provider)) report("provider-name", problem);
      try {
        const problems =
          provider === "openai"
            ? validateOpenAiStrictSchema(toOpenAiStrictSchema(tool))
            : provider === "anthropic"
              ? validateAnthropicInputSchema(schema)
              : validateGeminiSchema(toGeminiSchema(tool));
        for (const problem of problems) report(`provider-schema-${provider}`, problem);
      } catch (error) {
        report(
          `provider-schema-${provider}`,
          `could not build the ${provider} schema: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
  }

  const expectInvalid = async (label: string, input: unknown, mustName: readonly string[] = []) => {
    const result = await runSafely(tool, input);
    if (!isToolResult(result) || result.success || result.error.code !== "INVALID_INPUT") {
      report(
        "invalid-input",
        `run(${label}) must resolve to INVALID_INPUT, got ${describeOutcome(result)}`,
      );
      return;
    }
    for (const name of mustName) {
      if (!result.error.message.includes(name)) {
        report(
          "invalid-input",
          `run(${label}) must name ${JSON.stringify(name)} in its message, got: ${result.error.message}`,
        );
      }
    }
  };

  for (const [label, garbage] of [
    ["a number", 42],
    ["a boolean", true],
    ["an array", [1, 2]],
    ["a non-JSON string", "{not json"],
    ["a function", () => 1],
  ] as const) {
    await expectInvalid(label, garbage);
  }
  const sample: JsonValue = schema !== undefined ? sampleFromSchema(schema) : {};
  const base = isObject(sample) ? sample : {};
  await expectInvalid("an extra field", { ...base, conformance_extra_field: 1 }, [
    "conformance_extra_field",
  ]);
  const required =
    schema !== undefined && Array.isArray(schema.required) ? schema.required.map(String) : [];
  if (required.length > 0) await expectInvalid("missing required fields", {}, required);
  const properties = schema !== undefined && isObject(schema.properties) ? schema.properties : {};
  for (const [key, property] of Object.entries(properties)) {
    if (!isObject(property)) continue;
    await expectInvalid(`a wrong type for ${key}`, { ...base, [key]: wrongTypeFor(property) }, [
      key,
    ]);
  }
  await expectInvalid("an oversized input", {
    ...base,
    conformance_padding: "x".repeat(tool.maxInputBytes + 1),
  });

  const aborted = new AbortController();
  aborted.abort();
  const abortedResult = await runSafely(tool, base, aborted.signal);
  if (
    !isToolResult(abortedResult) ||
    abortedResult.success ||
    abortedResult.error.code !== "ABORTED"
  ) {
    report(
      "aborted",
      `run with an aborted signal must resolve to ABORTED, got ${describeOutcome(abortedResult)}`,
    );
  }

  try {
    const content = tool.renderResult(
      fail("INTERNAL", "conformance check failure", { hint: "a hint" }),
    );
    const text = typeof content === "string" ? content : JSON.stringify(content);
    if (
      !text.startsWith("Error [INTERNAL]: conformance check failure") ||
      !text.includes("a hint")
    ) {
      report(
        "render",
        `a failure must render as "Error [CODE]: message" with the hint, got: ${text.slice(0, 200)}`,
      );
    }
  } catch (error) {
    report(
      "render",
      `rendering a failure threw: ${error instanceof Error ? error.message : String(error)}`,
    );
  }

  const samples = options.samples ?? {};
  if (Object.hasOwn(samples, tool.name)) {
    const input = samples[tool.name];
    const result = (await runSafely(tool, input)) as ToolResult<unknown>;
    if (!isToolResult(result) || !result.success) {
      report("sample", `run(sample) must succeed, got ${describeOutcome(result)}`);
    } else {
      await checkSuccess(tool, input, result, mounted, options, false, report);
      if (options.workspaceRoot !== undefined)
        await checkAbsolutePathSample(
          tool,
          input,
          options.workspaceRoot,
          (absolute) => runSafely(tool, absolute),
          report,
        );
      if (
        tool.annotations.readOnly === true &&
        !(options.nondeterministic ?? []).includes(tool.name)
      ) {
        const again = (await runSafely(tool, input)) as ToolResult<unknown>;
        const first = JSON.stringify(result.data);
        const second =
          isToolResult(again) && again.success ? JSON.stringify(again.data) : undefined;
        if (first !== second) {
          report(
            "deterministic",
            "the same read-only call on an unchanged world returned a different result the second time",
          );
        }
      }
    }
  }
  const cutSamples = options.cutSamples ?? {};
  if (Object.hasOwn(cutSamples, tool.name)) {
    const input = cutSamples[tool.name];
    const result = (await runSafely(tool, input)) as ToolResult<unknown>;
    if (!isToolResult(result) || !result.success) {
      report("sample", `run(cut sample) must succeed, got ${describeOutcome(result)}`);
    } else {
      await checkSuccess(tool, input, result, mounted, options, true, report);
    }
  }
}

/**
 * Checks tools against the agentool contract and reports every violation: name pattern,
 * described snake_case fields, no union in the input JSON Schema (`no-union`, see
 * `findSchemaUnions`), no description naming a `PageInfo` data key the model never reads
 * (`description-names-data-key`: `next_offset`, `total_at_least`), each provider's schema rules, `run` on garbage / missing /
 * extra / wrong-typed / oversized input resolving to `INVALID_INPUT` naming the field, an
 * aborted signal resolving to `ABORTED`, and rendering of failures and (with samples) successes.
 *
 * @param tools - the tools to check (made by `defineTool`)
 * @param options - valid samples per tool, limits, providers
 * @returns the report; `violations` is empty when everything conforms
 * @example
 * const report = await checkConformance([think, updatePlan], { samples: { think: { thought: "x" } } });
 * expect(report.violations).toEqual([]);
 */
export async function checkConformance(
  tools: readonly unknown[],
  options: ConformanceOptions = {},
): Promise<ConformanceReport> {
  const violations: ConformanceViolation[] = [];
  const checkedTools: string[] = [];
  const seen = new Set<string>();
  const mounted = new Set<string>(options.alsoMounted ?? []);
  for (const candidate of tools) if (isTool(candidate)) mounted.add(candidate.name);
  if (tools.length === 0)
    violations.push({ tool: "(list)", rule: "tools", message: "no tools were given" });
  for (const candidate of tools) {
    if (!isTool(candidate)) {
      violations.push({
        tool: "(list)",
        rule: "is-tool",
        message: `not a tool made by defineTool: ${String(candidate)}`,
      });
      continue;
    }
    if (seen.has(candidate.name)) {
      violations.push({
        tool: candidate.name,
        rule: "unique-name",
        message: "two tools share this name",
      });
    }
    seen.add(candidate.name);
    checkedTools.push(candidate.name);
    await checkTool(candidate, options, mounted, (rule, message) =>
      violations.push({ tool: candidate.name, rule, message }),
    );
  }
  for (const name of [
    ...Object.keys(options.samples ?? {}),
    ...Object.keys(options.cutSamples ?? {}),
  ]) {
    if (!seen.has(name))
      violations.push({
        tool: name,
        rule: "sample",
        message: "a sample was given for a tool that is not in the list",
      });
  }
  return { violations, checkedTools };
}

/**
 * Like {@link checkConformance}, but throws one error listing every violation.
 *
 * @param tools - the tools to check
 * @param options - valid samples per tool, limits, providers
 * @returns the report when there is no violation
 * @example
 * await assertConformance(createCoreTools(), { samples: { think: { thought: "x" } } });
 */
export async function assertConformance(
  tools: readonly unknown[],
  options: ConformanceOptions = {},
): Promise<ConformanceReport> {
  const report = await checkConformance(tools, options);
  if (report.violations.length > 0) {
    const lines = report.violations.map(
      (violation) => `- ${violation.tool} [${violation.rule}]: ${violation.message}`,
    );
    throw new Error(`${report.violations.length} contract violation(s):\n${lines.join("\n")}`);
  }
  return report;
}
