import type { ErrorCode, JsonSchema, ToolResult } from "@agentool/contract";

/** One Gemini function declaration. */
export interface GeminiFunctionDeclaration {
  name: string;
  description: string;
  /**
   * A Gemini `Schema` (OpenAPI 3.0 subset, upper-case types); absent for a tool without input,
   * because Gemini refuses an `OBJECT` with no properties.
   */
  parameters?: JsonSchema;
}

/** A Gemini `Tool` holding function declarations (an entry of `config.tools`). */
export interface GeminiTool {
  functionDeclarations: GeminiFunctionDeclaration[];
}

/** A `functionCall` from a Gemini response part (`response.functionCalls[i]`). */
export interface GeminiFunctionCall {
  id?: string;
  name?: string;
  /** The arguments, already parsed by the API. */
  args?: Record<string, unknown>;
}

/** The `response` of a successful call. */
// Type aliases, not interfaces: an alias is assignable to the SDK's `Record<string, unknown>`
// (`Part.functionResponse.response`), so the part goes into `contents` without a cast.
export type GeminiSuccessResponse = {
  /** The rendered result; images become a text placeholder. */
  output: string;
};

/** The `response` of a failed call. */
export type GeminiErrorResponse = {
  error: { code: ErrorCode; message: string; hint?: string };
};

/** The part that answers a `functionCall` (send it in the next `user` content). */
export interface GeminiFunctionResponsePart {
  functionResponse: {
    id?: string;
    name: string;
    response: GeminiSuccessResponse | GeminiErrorResponse;
  };
}

/** What dispatching a `functionCall` gives. */
export interface GeminiDispatchResult {
  /** Put this in the `parts` of the next `user` content. */
  part: GeminiFunctionResponsePart;
  /** The tool's envelope (the full data, or the error with its code). */
  result: ToolResult<unknown>;
}
