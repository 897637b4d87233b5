import type { IncomingMessage, ServerResponse } from "node:http";
import { reply } from "./reply.js";

class BodyTooLargeError extends Error {}

async function readBody(request: IncomingMessage, limit: number): Promise<string> {
  const declared = Number(request.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) throw new BodyTooLargeError();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new BodyTooLargeError();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Reads and parses a POST body of at most `maxBodyBytes` (a larger declared or actual body is
 * answered 413, a body that is not JSON 400).
 *
 * @param request - the POST
 * @param response - where a refusal goes
 * @param maxBodyBytes - the cap
 * @returns the parsed body, or `undefined` after answering 413 or 400
 */
export async function readJsonBody(
  request: IncomingMessage,
  response: ServerResponse,
  maxBodyBytes: number,
): Promise<unknown | undefined> {
  try {
    return JSON.parse(await readBody(request, maxBodyBytes)) as unknown;
  } catch (error) {
    if (error instanceof BodyTooLargeError) {
      reply(response, 413, `Payload too large: bodies are capped at ${maxBodyBytes} bytes.`);
    } else {
      reply(response, 400, "Parse error: the body is not JSON.");
    }
    return undefined;
  }
}
