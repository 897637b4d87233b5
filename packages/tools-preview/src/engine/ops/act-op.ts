import type { PreviewAction } from "../../preview-backend.js";
import { checkActOutcome } from "../driver-answers.js";
import { describeAction } from "../preview-input.js";
import type { SessionWork } from "./session-work.js";

/**
 * `act`: the backend performs the actions, then one frame lets the artifact draw what they
 * changed (and hands over the console in the same round trip).
 *
 * @param actions - the checked actions
 * @returns the op's work
 */
export function actWork(actions: readonly PreviewAction[]): SessionWork {
  return async (session, signal) => {
    const outcome = checkActOutcome(await session.backend.act(actions, signal), actions.length);
    // One frame for the artifact to draw what the actions changed, with the console.
    await session.callDriver("settle", [], signal);
    const failedAction = outcome.failed === undefined ? undefined : actions[outcome.failed.index];
    return {
      requested: actions.length,
      completed: outcome.completed,
      ...(outcome.failed !== undefined && failedAction !== undefined
        ? {
            failed: {
              index: outcome.failed.index,
              type: describeAction(failedAction),
              message: outcome.failed.message,
            },
          }
        : {}),
    };
  };
}
