// `mesh-perf plan | head -n 1`: the reader closes the pipe and the next write fails with EPIPE,
// which Node raises as an unhandled 'error' event (a stack trace and exit 1, the "gate failed"
// code). A closed reader means "I have read enough", as it does for every Unix tool: the command
// finishes with its own exit code and what it would still print goes nowhere.

/** Makes EPIPE on `stream` quiet; returns whether the reader has gone (so callers can stop writing). */
export function tolerateClosedReader(stream: NodeJS.WritableStream): () => boolean {
  let closed = false;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') {
      closed = true;
      return;
    }
    // Anything else (a full disk behind a redirect) is still worth a line on the other stream.
    if (stream !== process.stderr && !process.stderr.destroyed) process.stderr.write(`mesh-perf: cannot write output: ${error.message}\n`);
    closed = true;
  });
  return () => closed;
}
