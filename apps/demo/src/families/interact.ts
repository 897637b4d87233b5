import {
  createInteractTools,
  type InteractionHandler,
  type UserAnswer,
  type UserQuestion,
} from "@agentool/tools-interact";
import type { DemoFamily } from "./demo-family.js";

const PRIORITY_QUESTION = "Which todo item should I fix first?";
const COMMIT_QUESTION = "Commit the port fix to the repository once it is made?";

/**
 * The answers the scripted run gives, keyed by question: the host's script, not a stand-in for
 * a person. A question the script does not know gets no answer (the tools then tell the model
 * so), which is what happens when a live model asks something unexpected without `--interactive`.
 */
export const SCRIPTED_ANSWERS: ReadonlyMap<string, UserAnswer> = new Map<string, UserAnswer>([
  [PRIORITY_QUESTION, "The port mismatch"],
  [COMMIT_QUESTION, true],
]);

function questionText(question: UserQuestion): string {
  return question.type === "confirm" ? question.message : question.question;
}

/**
 * A handler that answers from {@link SCRIPTED_ANSWERS} and prints each question and answer
 * through `onExchange` (the transcript shows them).
 *
 * @param onExchange - receives each question with the scripted answer
 * @returns the handler
 */
export function createScriptedHandler(
  onExchange?: (question: UserQuestion, answer: UserAnswer) => void,
): InteractionHandler {
  return {
    ask(question) {
      const answer = SCRIPTED_ANSWERS.get(questionText(question));
      onExchange?.(question, answer);
      return answer;
    },
    notify() {},
  };
}

/**
 * The `@agentool/tools-interact` family: `ask_user`, `confirm` and `notify` over a handler —
 * the scripted one by default, the terminal (`createTerminalHandler`) with `--interactive`.
 *
 * @param handler - where questions go
 * @returns the family
 */
export function createInteractFamily(
  handler: InteractionHandler = createScriptedHandler(),
): DemoFamily {
  return {
    name: "interact",
    createTools: () => createInteractTools({ handler }),
    tasks: [
      {
        step: "Ask the user which item to fix first and whether to commit it",
        turns: [
          {
            toolCalls: [
              {
                name: "ask_user",
                arguments: {
                  question: PRIORITY_QUESTION,
                  options: [
                    {
                      label: "The port mismatch",
                      description: "README says 8080, src/app.ts uses 3000",
                    },
                    { label: "The JSON content type", description: "GET /count" },
                    { label: "POST /reset", description: "a new endpoint" },
                  ],
                },
              },
            ],
          },
          {
            toolCalls: [
              { name: "confirm", arguments: { message: COMMIT_QUESTION, default: false } },
            ],
          },
          {
            toolCalls: [
              {
                name: "notify",
                arguments: { message: "Starting on the port fix.", level: "info" },
              },
            ],
          },
        ],
      },
    ],
    findings: ["The user chose the port fix first and agreed to commit it."],
  };
}

/** The interact family with the scripted handler (the default run). */
export const interactFamily: DemoFamily = createInteractFamily();
