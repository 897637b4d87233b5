// @agentool/contract/policy in the browser: the secret-path matcher and the git-neutral
// configuration (as the environment a spawner would hand git) computed in a page.
import {
  createSecretPathMatcher,
  gitConfigEnvironment,
  gitNeutralConfig,
} from "@agentool/contract/policy";

/**
 * Asks the matcher about four paths and builds the git environment with and without hooks.
 *
 * @returns `secret` per path, the hooks path, and the environment's count and first pair
 */
export default async function run(): Promise<{
  secret: Record<string, boolean>;
  hooksPath: string | undefined;
  hooksPathWhenAllowed: string | undefined;
  environment: { count: string | undefined; firstKey: string | undefined; pairs: number };
}> {
  const isSecret = createSecretPathMatcher();
  const paths = ["config/.env.production", ".env.example", "src/index.ts", "keys/server.pem"];
  const neutral = gitNeutralConfig();
  const withHooks = gitNeutralConfig({ hooks: true });
  const environment = gitConfigEnvironment(neutral);
  return {
    secret: Object.fromEntries(paths.map((path) => [path, isSecret(path)])),
    hooksPath: neutral.find(([key]) => key === "core.hooksPath")?.[1],
    hooksPathWhenAllowed: withHooks.find(([key]) => key === "core.hooksPath")?.[1],
    environment: {
      count: environment.GIT_CONFIG_COUNT,
      firstKey: environment.GIT_CONFIG_KEY_0,
      pairs: Object.keys(environment).filter((name) => name.startsWith("GIT_CONFIG_KEY_")).length,
    },
  };
}
