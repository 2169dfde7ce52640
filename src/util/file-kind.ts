// What a path given as a file argument turned out to be, when it is not a regular file or a
// folder: a FIFO with no writer blocks the read forever (`compare good.json <fifo>` ignored Ctrl-C),
// a device never ends. Commands that read results refuse them with this name.
import type { Stats } from 'node:fs';

export function specialFileKind(info: Stats): string | undefined {
  if (info.isFile() || info.isDirectory()) return undefined;
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isSocket()) return 'a socket';
  return 'not a regular file';
}
