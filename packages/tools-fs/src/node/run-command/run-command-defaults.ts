/** The default name of the command tool. */
export const RUN_COMMAND_TOOL_NAME = "run_command";

/** Default time a command may run when the model gives no `timeout_ms`: 30 seconds. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 30_000;

/** Default longest `timeout_ms` a model may ask for: 5 minutes. */
export const DEFAULT_MAX_COMMAND_TIMEOUT_MS = 300_000;

/** Default wait between SIGTERM and SIGKILL when a command is stopped: 2 seconds. */
export const DEFAULT_KILL_GRACE_MS = 2_000;

/** Default cap on the characters of output shown (stdout and stderr together): 30,000. */
export const DEFAULT_MAX_OUTPUT_CHARACTERS = 30_000;

/** Default cap on the characters shown of one output line: 2,000 (the rest is counted). */
export const DEFAULT_MAX_OUTPUT_LINE_CHARACTERS = 2_000;

/** Default cap on the bytes a command may write (both streams): 512 MiB; past it the command is stopped. */
export const DEFAULT_MAX_CAPTURED_BYTES = 512 * 1_048_576;

/** Default wait for a command's output after its process ended (background jobs may hold it): 1 s. */
export const DEFAULT_OUTPUT_DRAIN_MS = 1_000;

/** Default lines kept from the start of each stream: 200. */
export const DEFAULT_MAX_HEAD_LINES = 200;

/** Default lines kept from the end of each stream: 200. */
export const DEFAULT_MAX_TAIL_LINES = 200;

/** Default cap on a sandboxed command's memory: 4 GiB (the whole sandbox under a cgroup, else each process's address space). */
export const DEFAULT_COMMAND_MEMORY_BYTES = 4 * 1_073_741_824;

/** Default cap on the processes a sandboxed command runs at once: 256. */
export const DEFAULT_COMMAND_PROCESSES = 256;

/** Default cap on the size of one file a sandboxed command writes: 1 GiB. */
export const DEFAULT_COMMAND_FILE_BYTES = 1_073_741_824;

/** Default size of a sandboxed command's temporary directories (`/tmp`, each its own tmpfs): 512 MiB. */
export const DEFAULT_COMMAND_TMP_BYTES = 512 * 1_048_576;
