// One simulation worker: loads the engine once, then answers one task at a time.
// Tasks: {id, kind, bytes, policy, settings, points, view, input}; kind is one of catalogue, inspect,
// simulate, metrics (a sweep's run: the result alone), schedule, gantt-open, gantt-render,
// gantt-hover, rank-sweep, lawson (mq-backfill against sq-backfill), kettimuthu-schemes,
// kettimuthu (the selective-preemption schemes compared), kettimuthu-load (one load-study point:
// input {label, factor}), kettimuthu-load-findings (input {labels, loads, utilization, avg_bsld}),
// leung-policies, leung-policy (one fairshare policy by width class: input {policy}) and
// leung-findings (input {policies, fst_miss_share, avg_fst_miss_s, avg_response_submitted_s,
// loss_of_capacity}).
import init, * as engine from './pkg/schedlab.js';

const ready = init({ module_or_path: new URL('./pkg/schedlab_bg.wasm', import.meta.url) });

// Everything below is shared verbatim with the single-file build's classic Blob worker,
// which defines `engine` and `ready` itself.
// @shared

let gantt = null; // the schedule drawn in the Gantt chart, kept between zooms

self.onmessage = async (event) => {
  const { id, kind, bytes, policy, settings = [], points = 400, view, input } = event.data;
  try {
    await ready;
    const t0 = performance.now();
    let json;
    if (kind === 'catalogue') json = engine.catalogue();
    else if (kind === 'inspect') json = engine.inspect(bytes, settings);
    else if (kind === 'schedule') json = JSON.stringify(engine.schedule(bytes, policy, settings));
    else if (kind === 'gantt-open') {
      gantt?.free();
      gantt = new engine.GanttSession(bytes, policy, settings);
      json = JSON.stringify([...gantt.extent()]);
    } else if (kind === 'gantt-render') {
      const px = gantt.render(view.t0, view.t1, view.width, view.height);
      self.postMessage({ id, ok: true, value: px, ms: performance.now() - t0 }, [px.buffer]);
      return;
    } else if (kind === 'gantt-hover') json = JSON.stringify(gantt ? gantt.describe(view.t, view.proc) : '');
    else if (kind === 'rank-sweep') json = engine.rank_sweep(input);
    else if (kind === 'lawson') json = engine.lawson_compare(bytes, settings);
    else if (kind === 'kettimuthu-schemes') json = engine.kettimuthu_schemes();
    else if (kind === 'kettimuthu') json = engine.kettimuthu_compare(bytes, settings);
    else if (kind === 'kettimuthu-load') json = engine.kettimuthu_load(bytes, input.label, input.factor, settings);
    else if (kind === 'kettimuthu-load-findings') {
      const f64 = (v) => Float64Array.from(v);
      json = engine.kettimuthu_load_findings(input.labels, f64(input.loads), f64(input.utilization), f64(input.avg_bsld));
    }
    else if (kind === 'leung-policies') json = engine.leung_policies();
    else if (kind === 'leung-policy') json = engine.leung_policy(bytes, input.policy, settings);
    else if (kind === 'leung-findings') {
      // A figure that was not measured (null) is NaN to the engine, as in its own summaries.
      const f64 = (v) => Float64Array.from(v, (x) => x ?? NaN);
      json = engine.leung_findings(
        input.policies,
        f64(input.fst_miss_share),
        f64(input.avg_fst_miss_s),
        f64(input.avg_response_submitted_s),
        f64(input.loss_of_capacity),
      );
    }
    else if (kind === 'metrics') {
      // A sweep needs only the result: the series, quantiles and categories stay here.
      const out = JSON.parse(engine.simulate(bytes, policy, settings, 1, () => {}));
      json = JSON.stringify(out.ok ? { ok: true, result: out.result } : out);
    }
    else json = engine.simulate(bytes, policy, settings, points, (share) => self.postMessage({ id, progress: share }));
    self.postMessage({ id, ok: true, value: JSON.parse(json), ms: performance.now() - t0 });
  } catch (err) {
    // A Rust panic arrives here as a RuntimeError; its message is in the console too.
    self.postMessage({ id, ok: false, error: String((err && err.message) || err) });
  }
};
