// A value the user wrote, quoted for an error message and cut to a readable length: a 1 MB suite
// name or a 200 KB image reference must not come back as a 1 MB error. The cut says how long the
// value was, so the message still explains itself.

/** Longest quoted value an error shows in full; longer ones keep their start and their length. */
export const MAX_ECHOED_CHARS = 80;

export function quote(text: string, max = MAX_ECHOED_CHARS): string {
  if (text.length <= max) return JSON.stringify(text);
  return `${JSON.stringify(text.slice(0, max))}… (${text.length.toLocaleString('en-US')} characters)`;
}

/** Longest error message the CLI prints; past it, one line says how much was left out. */
export const MAX_MESSAGE_CHARS = 8000;

export function cutMessage(message: string, max = MAX_MESSAGE_CHARS): string {
  if (message.length <= max) return message;
  return `${message.slice(0, max)}\n  … (message cut: ${(message.length - max).toLocaleString('en-US')} more characters)`;
}
