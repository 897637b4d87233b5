// The pgvector store (added by the store work).
export {};
