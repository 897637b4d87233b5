import { type ExtractSymbolsOptions, extractSymbolsInThread } from "./extract-symbols.js";
import { collectIdentifiersInThread } from "./identifiers.js";
import type { CodeLanguage, ParsedLanguage } from "./languages.js";
import { findNameOccurrencesInThread } from "./name-occurrences.js";
import { siblingDecoratorsStartInThread } from "./sibling-decorators.js";

/**
 * The engine's work as plain data: what the main thread sends a parse worker (a text, its
 * language and what to extract) and the one function that does it on whichever thread runs it.
 * Results are plain objects (structured-cloned back); no tree leaves the thread that parsed it.
 *
 * @internal
 */

/** One piece of work on one text. */
export type ParseJob =
  | {
      readonly kind: "extract";
      readonly language: CodeLanguage | undefined;
      readonly text: string;
      readonly maxParseBytes?: number;
    }
  | {
      readonly kind: "identifiers";
      readonly language: ParsedLanguage;
      readonly text: string;
      readonly names?: readonly string[];
    }
  | {
      readonly kind: "occurrences";
      readonly language: ParsedLanguage;
      readonly text: string;
      readonly name: string;
    }
  | {
      readonly kind: "decorators";
      readonly language: ParsedLanguage;
      readonly text: string;
      readonly startIndex: number;
      readonly endIndex: number;
      readonly decoratorTypes: readonly string[];
    };

/** The limits one job runs under. */
export interface ParseLimits {
  /** Most milliseconds the parse may take (the parser stops itself past it). */
  timeoutMs: number;
  /** Most bytes the WebAssembly memory may reach while parsing (default: no limit). */
  maxMemoryBytes?: number;
}

/**
 * Runs one job on this thread.
 *
 * @param job - the job
 * @param limits - its time and memory limits
 * @returns the job's result (see each `…InThread` function)
 * @throws ParseFailure when the parse timed out, ran out of memory or the grammar is unavailable
 */
export async function runParseJob(job: ParseJob, limits: ParseLimits): Promise<unknown> {
  const parse = {
    timeoutMs: limits.timeoutMs,
    ...(limits.maxMemoryBytes === undefined ? {} : { maxMemoryBytes: limits.maxMemoryBytes }),
  };
  switch (job.kind) {
    case "extract": {
      const options: ExtractSymbolsOptions = { ...parse };
      if (job.maxParseBytes !== undefined) options.maxParseBytes = job.maxParseBytes;
      return extractSymbolsInThread(job.language, job.text, options);
    }
    case "identifiers":
      return collectIdentifiersInThread(job.language, job.text, {
        ...parse,
        ...(job.names === undefined ? {} : { names: new Set(job.names) }),
      });
    case "occurrences":
      return findNameOccurrencesInThread(job.language, job.text, job.name, parse);
    case "decorators":
      return siblingDecoratorsStartInThread(job, parse);
  }
}
