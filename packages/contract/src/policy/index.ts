export {
  createSecretPathMatcher,
  DEFAULT_SECRET_EXCEPTIONS,
  DEFAULT_SECRET_PATHS,
  type SecretPathOptions,
  secretGlobAnywhere,
} from "../glob.js";
export {
  GIT_NEUTRAL_CONFIG,
  GIT_NO_HOOKS_PATH,
  type GitConfigEntry,
  type GitNeutralConfigOptions,
  gitConfigEnvironment,
  gitNeutralConfig,
} from "./git-neutral-config.js";
