/**
 * Ctrl-C: the first ends the run under way as --test-max-time would (operations under way finish, the report
 * and the files cover what ran, no further run starts), a second quits at once, after `quit` (which stops a
 * local server the command started).
 */
export function interruptOnCtrlC(quit: () => void): AbortSignal {
  const interrupt = new AbortController();
  process.on('SIGINT', () => {
    if (interrupt.signal.aborted) {
      quit();
      process.exit(130);
    }
    console.error('\niotdb-bench: stopping: operations under way finish, then the report (Ctrl-C again to quit now)');
    interrupt.abort();
  });
  return interrupt.signal;
}
