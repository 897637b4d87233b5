// @agentool/tools-code — structure-aware code tools. Exports are added by each tool's file.
export {};
