import { type DirectoryEntry, type FileSystem, FileSystemError } from "../file-system.js";

/**
 * The entry `name` of the directory `parent` as its listing shows it (a symlink is not
 * followed), or `undefined` when there is none or the directory cannot be read. A seam that
 * cannot list (`UNSUPPORTED`: a host's storage opened without `list`) has no symlinks, so its
 * `stat` answers instead.
 *
 * @param fileSystem - the seam
 * @param parent - the real workspace path of the directory
 * @param name - the entry's name
 * @returns the entry's name and type, or `undefined`
 * @internal
 */
export async function listedEntry(
  fileSystem: FileSystem,
  parent: string,
  name: string,
): Promise<Pick<DirectoryEntry, "name" | "type"> | undefined> {
  let entries: Array<Pick<DirectoryEntry, "name" | "type">>;
  try {
    entries =
      fileSystem.readDirectoryNames !== undefined
        ? await fileSystem.readDirectoryNames(parent)
        : await fileSystem.readDirectory(parent);
  } catch (error) {
    if (!FileSystemError.isInstance(error) || error.code !== "UNSUPPORTED") return undefined;
    const stat = await fileSystem.stat(parent.length === 0 ? name : `${parent}/${name}`);
    return stat === undefined ? undefined : { name, type: stat.type };
  }
  return entries.find((entry) => entry.name === name);
}
