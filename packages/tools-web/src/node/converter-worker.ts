/**
 * The worker thread that runs web_fetch's converters (Readability + HTML → Markdown, PDF text)
 * off the host's event loop, so a hostile page or PDF can be stopped: the host terminates the
 * thread on timeout or abort, and `resourceLimits` cap its memory.
 *
 * @internal
 */
import { parentPort } from "node:worker_threads";
import { createReadabilityExtractor } from "../internal/content-extractor.js";
import { htmlToMarkdown } from "../internal/html-to-markdown.js";
import { extractPdfWithUnpdf } from "../internal/pdf.js";
import type { ConverterJob } from "./converter-runner.js";

const readability = createReadabilityExtractor();

async function run(job: ConverterJob): Promise<unknown> {
  if (job.kind === "pdf") return extractPdfWithUnpdf(job.bytes, new AbortController().signal);
  let html = job.html;
  let title: string | undefined;
  let mainContent = false;
  if (job.readability) {
    try {
      const extracted = await readability(job.html, job.url);
      if (extracted !== undefined && extracted.html.trim().length > 0) {
        html = extracted.html;
        mainContent = true;
        title = extracted.title;
      }
    } catch {
      // fall back to the full page
    }
  }
  return { markdown: htmlToMarkdown(html, job.url), mainContent, ...(title ? { title } : {}) };
}

parentPort?.on("message", (message: { id: number; job: ConverterJob }) => {
  run(message.job).then(
    (result) => parentPort?.postMessage({ id: message.id, ok: true, result }),
    (error: unknown) => {
      const details = error as { code?: unknown; hint?: unknown; message?: unknown };
      parentPort?.postMessage({
        id: message.id,
        ok: false,
        error: {
          message: typeof details?.message === "string" ? details.message : String(error),
          ...(typeof details?.code === "string" ? { code: details.code } : {}),
          ...(typeof details?.hint === "string" ? { hint: details.hint } : {}),
        },
      });
    },
  );
});
