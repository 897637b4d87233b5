// @agentool/tools-office — documents an editing agent meets. Exports are added by each tool's file.
export {};
