export {
  createTerminalHandler,
  DEFAULT_TERMINAL_RETRIES,
  type TerminalHandler,
  type TerminalHandlerOptions,
} from "./terminal-handler.js";
