export { createNodeFileSystem, type NodeFileSystemOptions } from "./node-file-system.js";
