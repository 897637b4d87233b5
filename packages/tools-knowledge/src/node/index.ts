// The Node entry: the corpus folder with its sidecar index and the Node factory (added by the corpus work).
export {};
