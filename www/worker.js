// One simulation worker: loads the engine once, then answers one task at a time, each
// {id, kind, bytes, trace, policy, settings, points, view, input} (see onmessage for the kinds).
// A task's trace arrives once as `bytes` with its id `trace`; later tasks name the id alone and
// use the copy kept here. Replies carry `memory`, the wasm memory's size. A load ({file, max})
// streams a File or Blob into the engine and answers the packed trace; {kind: 'stop-load', id,
// why} stops it between chunks. {kind: 'hold', lock} makes the worker hold a Web Lock for its
// whole life, so the page learns when it is gone (closed or crashed) by being granted the lock.
import init, * as engine from './pkg/schedlab.js';

const ready = init({ module_or_path: new URL('./pkg/schedlab_bg.wasm', import.meta.url) });

/**
 * The engine with every export (the studies', explain's, the generator's, the load sweep's), loaded
 * the first time a task needs it: a second instance of the glue (its own URL) on the whole wasm.
 */
let whole = null;
const wholeEngine = () =>
  (whole ??= import('./pkg/schedlab_all.js').then(async (m) => {
    wholeMemory = (await m.default({ module_or_path: new URL('./pkg/schedlab_all_bg.wasm', import.meta.url) })).memory;
    return m;
  }).catch((e) => {
    whole = null; // the next task that needs it tries again
    throw e;
  }));

/** The TZif file of a tz database zone (the wasm has no database): tz/Area/City beside this script. */
async function zoneFile(name) {
  const res = await fetch(new URL(`./tz/${name}`, import.meta.url));
  if (!res.ok) throw new Error(`${name}: ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

// Everything below is shared verbatim with the single-file build's classic Blob worker,
// which defines `engine`, `ready`, `wholeEngine` and `zoneFile` itself.
// @shared

let gantt = null; // the schedule drawn in the Gantt chart, kept between zooms
let trace = { id: 0, bytes: null }; // the last trace received, so later tasks need not send it again
const stops = new Map(); // load id -> why the page asked it to stop
let running = 0; // the task under way, named in a report of an unhandled rejection
const CHUNK = 8 << 20; // bytes read from the file at a time
const zonesRead = new Map(); // zone -> its TZif file (null: none), fetched once and given to each engine
let bytesRead = null; // the trace bytes whose header was last read for its zone
const zonesGiven = new WeakMap(); // engine -> the zones registered with it

/** Registers with `eng` the zones the trace and the settings name before it reads them. */
async function zones(eng, bytes, settings) {
  const fresh = bytes && bytes !== bytesRead ? bytes : new Uint8Array(0);
  bytesRead = bytes ?? bytesRead;
  for (const name of engine.zones_wanted(fresh, settings)) {
    // A zone without its file is read as an unknown one: the header's fixed offset, else UTC.
    if (!zonesRead.has(name)) zonesRead.set(name, await zoneFile(name).catch(() => null));
  }
  const given = zonesGiven.get(eng) ?? zonesGiven.set(eng, new Set()).get(eng);
  for (const [name, tzif] of [...zonesRead].filter(([name]) => !given.has(name))) {
    given.add(name);
    if (tzif) eng.register_zone(name, tzif);
  }
}

/** The tasks only the whole engine answers; the rest, the engine the page opens with. */
const WHOLE = new Set(['explain-job', 'generate', 'schedule', 'to-swf', 'study']);

let wholeMemory = null; // the whole engine's memory, once it is loaded

/** The engine instances' memory in bytes (init's value is the instance's exports). */
const memory = () => ready.then((e) => e.memory.buffer.byteLength + (wholeMemory?.buffer.byteLength ?? 0), () => 0);

/** Streams `file` into a TraceLoader in chunks, reporting progress, until the loader (job limit, corrupt gzip) or the page (`stop-load`) stops it; a file that is not SWF is read again by the whole engine's AccountingLoader. */
async function load(id, file, max, logs = null) {
  const loader = logs ? new logs.AccountingLoader(max || 0) : new engine.TraceLoader(max || 0);
  let read = 0;
  let full = false;
  try {
    while (read < file.size) {
      const chunk = new Uint8Array(await file.slice(read, Math.min(file.size, read + CHUNK)).arrayBuffer());
      if (stops.has(id)) break;
      read += chunk.length;
      full = !loader.feed(chunk);
      self.postMessage({ id, progress: { read, size: file.size, jobs: loader.job_lines() } });
      if (full) break;
    }
    if (!logs && loader.wants_readers()) {
      loader.free();
      return await load(id, file, max, await wholeEngine());
    }
    const stopped = !full && read < file.size ? stops.get(id) ?? null : null;
    if (stopped) loader.interrupt(stopped);
    const jobs = loader.job_lines();
    return { packed: loader.finish(), read, size: file.size, jobs, full, stopped };
  } catch (err) {
    if (loader.__wbg_ptr) loader.free();
    throw err;
  } finally {
    stops.delete(id);
  }
}

self.addEventListener('unhandledrejection', (e) => self.postMessage({ id: running, ok: false, error: String(e.reason?.message ?? e.reason) }));

self.onmessage = async (event) => {
  const { id, kind, policy, settings = [], points = 400, view, input } = event.data;
  if (kind === 'stop-load') return stops.set(id, event.data.why || 'stopped');
  // Without Web Locks (a page opened from disk) the page cannot tell a closed worker: it waits.
  if (kind === 'hold') return navigator.locks?.request(event.data.lock, () => (self.postMessage({ held: true }), new Promise(() => {}))).catch(() => {});
  running = id;
  try {
    let { bytes } = event.data;
    if (event.data.trace) {
      if (bytes) trace = { id: event.data.trace, bytes };
      else if (trace.id === event.data.trace) bytes = trace.bytes;
      else throw new Error('the trace was not sent to this worker');
    }
    await ready;
    const eng = WHOLE.has(kind) || settings.some((s) => s.startsWith('cluster=')) || /^(slurm|easy-cluster)\b/.test(policy ?? '') ? await wholeEngine() : engine;
    await zones(eng, bytes, settings);
    const t0 = performance.now();
    let value;
    if (kind === 'load') {
      const { packed, ...rest } = await load(id, event.data.file, event.data.max);
      self.postMessage({ id, ok: true, value: packed, ...rest, ms: performance.now() - t0, memory: await memory() }, [packed.buffer]);
      return;
    }
    if (kind === 'catalogue') value = eng.catalogue();
    else if (kind === 'inspect') value = eng.inspect(bytes, settings, input?.name ?? '', input?.stopped ?? undefined, !!input?.full, input?.jobs ?? 0);
    else if (kind === 'schedule') value = eng.schedule(bytes, policy, settings);
    else if (kind === 'gantt-open') {
      gantt?.free();
      gantt = new eng.GanttSession(bytes, policy, settings);
      value = [...gantt.extent()];
    } else if (kind === 'gantt-render') {
      const px = gantt.render(view.t0, view.t1, view.width, view.height, view.highlight ?? -1);
      self.postMessage({ id, ok: true, value: px, ms: performance.now() - t0 }, [px.buffer]);
      return;
    } else if (kind === 'gantt-job') value = gantt ? gantt.job(view.t, view.proc) : null;
    else if (kind === 'gantt-hover') value = gantt ? gantt.describe(view.t, view.proc) : '';
    else if (kind === 'explain-job') value = eng.explain_job(bytes, policy, settings, input.job);
    else if (kind === 'to-swf') value = eng.to_swf(bytes, settings);
    else if (kind === 'generate') value = eng.generated(input.spec);
    else if (kind === 'study') value = eng.study_run(input.study, bytes, settings, input.input);
    else value = eng.simulate(bytes, policy, settings, points, (share) => self.postMessage({ id, progress: share }));
    self.postMessage({ id, ok: true, value, ms: performance.now() - t0, memory: await memory() });
  } catch (err) {
    // A Rust panic arrives here as a RuntimeError; its message is in the console too.
    // Named when it is not a plain Error: RuntimeError (a trap), RangeError (out of memory).
    const name = err?.name && err.name !== 'Error' ? `${err.name}: ` : '';
    self.postMessage({ id, ok: false, error: `${name}${(err && err.message) || err}` });
  }
};
