/**
 * Ctrl-C or SIGTERM (a supervisor's stop, `kill`, `timeout`): the first ends the run under way as --test-max-time
 * would (operations under way finish, the report and the files cover what ran, no further run starts; a Java child
 * is interrupted too: java-child.ts), a second quits at once, after `quit` (which stops a local server the command
 * started). Either way the command exits 130, as an interrupted run.
 */
export function interruptOnSignal(quit: () => void): AbortSignal {
  const interrupt = new AbortController();
  const stop = (signal: NodeJS.Signals) => {
    if (interrupt.signal.aborted) {
      quit();
      process.exit(130);
    }
    const by = signal === 'SIGINT' ? '' : ` (${signal})`;
    console.error(
      `\niotdb-bench: stopping${by}: operations under way finish, then the report (Ctrl-C again to quit now)`,
    );
    interrupt.abort(signal); // the runs it stops say which (RunStop.signal)
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return interrupt.signal;
}
