// Runs a study's tasks across the worker pool for a panel: a progress bar, a running count,
// and the first failure cancelling the rest of the panel's group.

/**
 * Runs `tasks` ({what, task}) in `pool`; `current()` says whether the panel still wants the
 * results (a newer run or a new trace makes them stale). The body's `data-GROUP` says
 * `running`, then `stopped` once `stopped` is called. Returns null if stale, else
 * {values, done, failure, t0, stopped}: the task values in order (null where one failed or was
 * cancelled), how many succeeded, the first failure's message, when the run began, and
 * `stopped(why = failure)`, which tells the panel's status why it stopped (cancelled if no why).
 * `onvalue(value, i)`, if given, takes each task's value as it arrives, so results show as they finish;
 * `noun` names a task in the status, singular and plural.
 */
export async function runTasks(pool, tasks, { group, bar, status, current, onvalue, noun = ['task', 'tasks'] }) {
  document.body.dataset[group] = 'running';
  bar.max = tasks.length;
  bar.value = 0;
  status(`Running ${tasks.length} ${noun[tasks.length === 1 ? 0 : 1]}…`);
  const t0 = performance.now();
  let done = 0;
  let failure = null;
  const values = await Promise.all(
    tasks.map(async ({ what, task }, i) => {
      const res = await pool.run(task);
      if (!current()) return null;
      if (!res.ok || !res.value.ok) {
        if (!res.cancelled && !failure) {
          failure = `${what}: ${res.ok ? res.value.message : res.error}`;
          pool.cancel(group);
        }
        return null;
      }
      bar.value = ++done;
      onvalue?.(res.value, i);
      status(`${done} of ${tasks.length} ${noun[1]} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
      return res.value;
    }),
  );
  const stopped = (why = failure) => {
    status(why ? `Stopped: ${why}` : `Cancelled after ${done} of ${tasks.length} ${noun[1]}.`, why ? 'error' : '');
    document.body.dataset[group] = 'stopped';
  };
  return current() ? { values, done, failure, t0, stopped } : null;
}
