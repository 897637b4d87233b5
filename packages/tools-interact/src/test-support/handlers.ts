import type {
  InteractionContext,
  InteractionHandler,
  UserAnswer,
  UserNotification,
  UserQuestion,
} from "../interaction-handler.js";

/** What a scripted handler answers: a value, or a function of the question and context. */
export type ScriptedAnswer =
  | UserAnswer
  | ((question: UserQuestion, context: InteractionContext) => UserAnswer | Promise<UserAnswer>);

/** A handler for tests that answers from a list and records what it was asked. */
export interface RecordingHandler extends InteractionHandler {
  questions: UserQuestion[];
  contexts: InteractionContext[];
  notifications: UserNotification[];
}

/**
 * A test handler: answers questions in order from `answers` and records every call.
 */
export function createRecordingHandler(answers: ScriptedAnswer[] = []): RecordingHandler {
  const queue = [...answers];
  const handler: RecordingHandler = {
    questions: [],
    contexts: [],
    notifications: [],
    ask(question, context) {
      handler.questions.push(question);
      handler.contexts.push(context);
      const next = queue.shift();
      return typeof next === "function" ? next(question, context) : next;
    },
    notify(notification) {
      handler.notifications.push(notification);
    },
  };
  return handler;
}

/** A promise that never settles unless the signal aborts (then it rejects). */
export function waitUntilAborted(signal: AbortSignal): Promise<UserAnswer> {
  return new Promise((_resolve, reject) => {
    signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true });
  });
}

/**
 * A test handler that gives the same answer to every question (an unchanged world for the
 * conformance kit, which runs each read-only sample twice and compares).
 */
export function createSteadyHandler(
  answer: (question: UserQuestion) => UserAnswer,
): RecordingHandler {
  const handler = createRecordingHandler();
  handler.ask = (question, context) => {
    handler.questions.push(question);
    handler.contexts.push(context);
    return answer(question);
  };
  return handler;
}
