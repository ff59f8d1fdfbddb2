//! The Learn view's model: the small trace as a table a person edits ([`Row`], kept in links as
//! `jobs=submit,runtime,estimate,procs,user;...`), and what the view shows at each scheduling
//! pass of one or two lessons side by side ([`Passes::at`]): the time, each policy's queue and
//! sentences, and whether the two decide alike. The page only draws it.

use serde::{Deserialize, Serialize};

use super::lesson::{Lesson, Lessons};

/// One job of the Learn view's table: the fields a person edits.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// Submit time (s).
    pub submit: i64,
    /// Runtime (s).
    pub runtime: i64,
    /// The user's estimate (s).
    pub estimate: i64,
    /// Processors.
    pub procs: i64,
    /// User number.
    pub user: i64,
}

/// The jobs of an SWF text as rows, and its machine size (`MaxProcs`, else the widest job).
pub fn rows_of_swf(swf: &str) -> (Vec<Row>, i64) {
    let mut rows = Vec::new();
    let mut machine = 0;
    for line in swf.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix(';') {
            if let Some((key, value)) = rest.split_once(':') {
                if key.trim().eq_ignore_ascii_case("MaxProcs") {
                    machine = value.trim().parse().unwrap_or(0);
                }
            }
            continue;
        }
        let f: Vec<i64> = line.split_whitespace().map(|x| x.parse::<f64>().map_or(0, |v| v as i64)).collect();
        if f.len() < 12 {
            continue;
        }
        let procs = if f[7] > 0 { f[7] } else { f[4] };
        rows.push(Row { submit: f[1], runtime: f[3], estimate: f[8], procs, user: f[11] });
    }
    let widest = rows.iter().map(|r| r.procs).max().unwrap_or(1);
    (rows, if machine > 0 { machine } else { widest.max(1) })
}

/// The rows as SWF text on a machine of `machine` processors, jobs numbered from 1 in row order.
pub fn swf_of_rows(rows: &[Row], machine: i64) -> String {
    let mut out = format!("; MaxProcs: {machine}\n");
    for (i, r) in rows.iter().enumerate() {
        out += &format!(
            "{} {} -1 {} {} -1 -1 {} {} -1 1 {} {} -1 1 -1 -1 -1\n",
            i + 1,
            r.submit,
            r.runtime,
            r.procs,
            r.procs,
            r.estimate,
            r.user,
            r.user
        );
    }
    out
}

/// The rows as the `jobs=` link value.
pub fn rows_param(rows: &[Row]) -> String {
    let row = |r: &Row| format!("{},{},{},{},{}", r.submit, r.runtime, r.estimate, r.procs, r.user);
    rows.iter().map(row).collect::<Vec<_>>().join(";")
}

/// Rows from a `jobs=` link value. A number that cannot be read becomes 0 (the engine then
/// reports the job), a missing estimate the runtime, a missing width or user 1.
pub fn parse_rows(value: &str) -> Vec<Row> {
    value
        .split(';')
        .filter(|s| !s.trim().is_empty())
        .map(|s| {
            let mut f = s.split(',').map(|x| x.trim().parse::<f64>().map_or(0, |v| v as i64));
            let mut next = || f.next().unwrap_or(0);
            let (submit, runtime, estimate, procs, user) = (next(), next(), next(), next(), next());
            let or = |v: i64, d: i64| if v == 0 { d } else { v };
            Row { submit, runtime, estimate: or(estimate, runtime), procs: or(procs, 1), user: or(user, 1) }
        })
        .collect()
}

/// What one policy's panel shows at a pass.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Panel {
    /// The policy.
    pub policy: String,
    /// Its step drawn (its last pass at or before the time), none before its first.
    pub step: Option<usize>,
    /// When that step's pass ran.
    pub step_time: Option<i64>,
    /// The queue in the policy's order and the free processors, in a sentence.
    pub queue: String,
    /// The pass's decisions in sentences (none when the policy ran no pass at this time).
    pub said: Vec<String>,
    /// Why there is nothing to say: no pass yet, or none at this time.
    pub note: Option<String>,
}

/// What the Learn view shows at one pass of the lessons.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Pass {
    /// Which pass (from 0), within the passes there are.
    pub index: usize,
    /// How many passes there are (of either lesson).
    pub count: usize,
    /// Its time (s).
    pub time: i64,
    /// "pass 3 of 9: t=40 s".
    pub label: String,
    /// One panel per lesson.
    pub panels: Vec<Panel>,
    /// When the two lessons decide alike here: the sentence saying so.
    pub same: Option<String>,
    /// The pass (from 1) where they part, when they do.
    pub part: Option<usize>,
    /// Both lessons' span, which both charts share.
    pub span: (i64, i64),
}

/// The lessons' passes: every time either lesson ran a scheduling pass, in order.
pub fn pass_times(lessons: &Lessons) -> Vec<i64> {
    let mut times: Vec<i64> = lessons.lessons.iter().flat_map(|l| l.steps.iter().map(|s| s.time)).collect();
    crate::sorting::by_key(&mut times, |&t| (t, 0));
    times.dedup();
    times
}

/// The lesson's last step at or before `t`.
fn step_at(lesson: &Lesson, t: i64) -> Option<usize> {
    lesson.steps.iter().rposition(|s| s.time <= t)
}

/// What `lesson` decides at `t`, to compare two lessons of one trace: nothing before its first
/// pass, idle between passes, else its pass's sentences and queue (positions in the trace).
fn decides(lesson: &Lesson, t: i64) -> Option<Option<(&[String], &[usize])>> {
    let s = &lesson.steps[step_at(lesson, t)?];
    Some((s.time == t).then_some((s.sentences.as_slice(), s.waiting.as_slice())))
}

/// What the view shows at pass `index` (clamped to the passes there are).
pub fn pass(lessons: &Lessons, index: usize) -> Pass {
    let times = pass_times(lessons);
    let index = index.min(times.len().saturating_sub(1));
    let t = times.get(index).copied().unwrap_or(0);
    let label = if times.is_empty() {
        "no passes".to_string()
    } else {
        format!("pass {} of {}: t={t} s", index + 1, times.len())
    };
    let panels = lessons.lessons.iter().map(|l| panel(l, t)).collect();
    let (mut same, mut part) = (None, None);
    if let [a, b] = &lessons.lessons[..] {
        if decides(a, t) == decides(b, t) {
            let differ = |u: &i64| decides(a, *u) != decides(b, *u);
            let later = times.iter().enumerate().position(|(i, u)| i > index && differ(u));
            part = later.or_else(|| times.iter().position(differ)).map(|i| i + 1);
            let alike = format!("{} and {} decide alike at this pass", a.policy, b.policy);
            same = Some(match part {
                Some(p) => format!("{alike}; they part at pass {p} (t={} s).", times[p - 1]),
                None => format!("{alike} and at every other: on this trace they never part."),
            });
        }
    }
    Pass { index, count: times.len(), time: t, label, panels, same, part, span: span(lessons) }
}

/// From the earliest start of the lessons' spans to the latest end: the time axis both charts share.
pub fn span(lessons: &Lessons) -> (i64, i64) {
    let lo = lessons.lessons.iter().map(|l| l.span.0).min().unwrap_or(0);
    let hi = lessons.lessons.iter().map(|l| l.span.1).max().unwrap_or(0);
    (lo, hi)
}

/// One lesson's panel at time `t`.
fn panel(lesson: &Lesson, t: i64) -> Panel {
    let policy = lesson.policy.clone();
    let Some(step) = step_at(lesson, t) else {
        let note = Some(format!("{policy} has not run a pass yet at t={t}."));
        return Panel { policy, step: None, step_time: None, queue: String::new(), said: Vec::new(), note };
    };
    let s = &lesson.steps[step];
    let free = if s.free == 1 { "1 processor is free".to_string() } else { format!("{} processors are free", s.free) };
    let names: Vec<String> = s.waiting.iter().map(|&j| format!("job {}", lesson.jobs[j].id)).collect();
    let queue = if names.is_empty() {
        format!("No job waits; {free}.")
    } else {
        format!("Waiting, in {policy}'s order: {}; {free}.", names.join(", "))
    };
    let idle = s.time != t;
    let note = idle.then(|| format!("No pass at t={t}: nothing changed for {policy} since its pass at t={}.", s.time));
    let said = if idle { Vec::new() } else { s.sentences.clone() };
    Panel { policy, step: Some(step), step_time: Some(s.time), queue, said, note }
}

/// The Learn view's job table as HTML: a row per job, each field an input (`data-row`, `data-key`)
/// and a button removing it (`data-remove`).
pub fn rows_html(rows: &[Row]) -> String {
    use crate::render::html::{button, El};
    let heads = ["job", "submit (s)", "runtime (s)", "estimate (s)", "processors", "user", ""];
    let head = El::new("thead").kid(El::new("tr").kids(heads.iter().map(|h| El::new("th").text(h))));
    let body = El::new("tbody").kids(rows.iter().enumerate().map(|(i, r)| {
        let fields = [
            ("submit", r.submit),
            ("runtime", r.runtime),
            ("estimate", r.estimate),
            ("procs", r.procs),
            ("user", r.user),
        ];
        let inputs = fields.iter().map(|(key, v)| {
            let input = El::new("input").attr("type", "number").attr("min", if *key == "submit" { "0" } else { "1" });
            let input = input.attr("value", v.to_string()).attr("aria-label", format!("job {} {key}", i + 1));
            El::new("td").kid(input.attr("data-row", i.to_string()).attr("data-key", key))
        });
        let remove =
            button("Remove").attr("aria-label", format!("remove job {}", i + 1)).attr("data-remove", i.to_string());
        El::new("tr").kid(El::new("td").text((i + 1).to_string())).kids(inputs).kid(El::new("td").kid(remove))
    }));
    format!("{head}{body}")
}

/// The name your own policy runs and shows under in the Learn view (the policy panel's).
pub const MINE: &str = "mine";

/// The link's parameters that hold a lesson: a link (or an embed) reproduces it.
const LINK_KEYS: [&str; 6] = ["example", "jobs", "machine", "policies", "step", "mine"];

/// The Learn view's state: the trace (a worked example's, or the user's own after an edit), its
/// machine, the one or two policies, your own policy's priority and the pass shown. It is read
/// from the link and written back to it; the page only wires its inputs to it.
#[derive(Debug, Clone)]
pub struct View {
    /// The jobs, as the table shows them.
    pub rows: Vec<Row>,
    /// Processors.
    pub machine: i64,
    /// Settings (`KEY=VALUE`) the lessons run with: the example's, or the link's `set=`.
    pub settings: Vec<String>,
    /// The policies, one or two, by name ([`MINE`] for your own).
    pub policies: Vec<String>,
    /// The worked example shown, none once the trace is edited.
    pub example: Option<&'static super::examples::Example>,
    /// The pass shown (from 0).
    pub index: usize,
    /// Your own policy's priority expression.
    pub priority: String,
    /// Your own policy's reservation depth (the policy panel's `mine_k`).
    pub depth: String,
    /// The policies that can be chosen: the catalogue's and [`MINE`].
    pub catalogue: Vec<String>,
}

impl View {
    /// The lesson the link's parameters (`example=` or `jobs=` with `machine=` and `set=`,
    /// `policies=`, `step=`, `mine=`, `mine_k=`) ask for, the first example by default.
    pub fn from_link(pairs: &[(String, String)], policies: &[String]) -> View {
        let get = |key: &str| pairs.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
        let mut catalogue = policies.to_vec();
        catalogue.push(MINE.to_string());
        let mut view = View {
            rows: Vec::new(),
            machine: 1,
            settings: Vec::new(),
            policies: Vec::new(),
            example: None,
            index: get("step").and_then(|s| s.parse().ok()).unwrap_or(0),
            priority: get("mine").unwrap_or("-submit").to_string(),
            depth: get("mine_k").unwrap_or("1").to_string(),
            catalogue,
        };
        match get("jobs") {
            Some(jobs) => {
                view.rows = parse_rows(jobs);
                let widest = view.rows.iter().map(|r| r.procs).max().unwrap_or(1).max(1);
                view.machine = get("machine").and_then(|m| m.parse().ok()).filter(|&m| m >= 1).unwrap_or(widest);
                view.settings = pairs.iter().filter(|(k, _)| k == "set").map(|(_, v)| v.clone()).collect();
                view.policies = view.pick(get("policies").unwrap_or("fcfs,easy"));
            }
            None => view.load_example(get("example").unwrap_or(""), get("policies")),
        }
        view
    }

    /// The names of `list` (comma-separated) that can be chosen, at most two.
    fn pick(&self, list: &str) -> Vec<String> {
        let names = list.split(',').map(str::trim).filter(|n| self.catalogue.iter().any(|c| c == n));
        names.take(2).map(String::from).collect()
    }

    /// Shows the worked example `name` (the first when there is none of that name), with its own
    /// policies unless `policies` names some.
    pub fn load_example(&mut self, name: &str, policies: Option<&str>) {
        let examples = super::examples::EXAMPLES;
        let ex = examples.iter().find(|e| e.name == name).unwrap_or(&examples[0]);
        (self.rows, self.machine) = rows_of_swf(ex.swf);
        self.settings = ex.settings.iter().map(|s| s.to_string()).collect();
        let chosen = policies.map(|p| self.pick(p)).unwrap_or_default();
        self.policies = if chosen.is_empty() { ex.policies.iter().map(|p| p.to_string()).collect() } else { chosen };
        self.example = Some(ex);
    }

    /// The trace was edited: it is the user's own from now on.
    pub fn edited(&mut self) {
        self.example = None;
    }

    /// Sets field `key` of row `row` to `value`; false (nothing changed) for no such field.
    pub fn edit(&mut self, row: usize, key: &str, value: i64) -> bool {
        let Some(r) = self.rows.get_mut(row) else { return false };
        let field = match key {
            "submit" => &mut r.submit,
            "runtime" => &mut r.runtime,
            "estimate" => &mut r.estimate,
            "procs" => &mut r.procs,
            "user" => &mut r.user,
            _ => return false,
        };
        *field = value;
        self.edited();
        true
    }

    /// Adds a job like the last one, a second after it.
    pub fn add_row(&mut self) {
        let last = self.rows.last().copied().unwrap_or(Row { submit: 0, runtime: 10, estimate: 10, procs: 1, user: 1 });
        self.rows.push(Row { submit: last.submit + 1, ..last });
        self.edited();
    }

    /// Removes job `row` (from 0).
    pub fn remove_row(&mut self, row: usize) {
        if row < self.rows.len() {
            self.rows.remove(row);
            self.edited();
        }
    }

    /// The policies' run specifications: your own as the engine's custom policy named [`MINE`].
    pub fn specs(&self) -> Vec<String> {
        let mine = |p: &String| {
            let priority = if self.priority.trim().is_empty() { "-submit" } else { self.priority.trim() };
            let depth = if self.depth.trim().is_empty() { "1" } else { self.depth.trim() };
            if p == MINE {
                format!("custom:priority={priority};k={depth};name={MINE}")
            } else {
                p.clone()
            }
        };
        self.policies.iter().map(mine).collect()
    }

    /// The link's parameters with the lesson's in place of any it had.
    pub fn link(&self, pairs: &[(String, String)]) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> =
            pairs.iter().filter(|(k, _)| !LINK_KEYS.contains(&k.as_str())).cloned().collect();
        let mut put = |k: &str, v: String| out.push((k.to_string(), v));
        match self.example {
            Some(ex) => put("example", ex.name.to_string()),
            None => {
                put("jobs", rows_param(&self.rows));
                put("machine", self.machine.to_string());
            }
        }
        put("policies", self.policies.join(","));
        let priority = self.priority.trim();
        if self.policies.iter().any(|p| p == MINE) && !priority.is_empty() && priority != "-submit" {
            put("mine", priority.to_string());
        }
        if self.index > 0 {
            put("step", self.index.to_string());
        }
        out
    }

    /// The lesson's title and what to look for in it.
    pub fn heading(&self) -> (String, String) {
        match self.example {
            Some(ex) => (format!("{} ({})", ex.title, ex.source), ex.lesson.to_string()),
            None => (
                "Your trace".to_string(),
                "Edited from the example: every change runs the policies again. \"Back to the example\" restores it."
                    .to_string(),
            ),
        }
    }

    /// The worked examples as buttons (`data-example`), the one shown marked current.
    pub fn examples_html(&self) -> String {
        use crate::render::html::button;
        let shown = self.example.map(|e| e.name);
        let buttons = super::examples::EXAMPLES.iter().map(|ex| {
            let b = button(ex.title).attr("title", ex.source).attr("data-example", ex.name);
            if shown == Some(ex.name) {
                b.attr("aria-current", "true")
            } else {
                b
            }
        });
        buttons.map(|b| b.to_string()).collect()
    }

    /// The options of a policy select, the `which`th policy (0 or 1) selected; the second
    /// offers none too.
    pub fn options_html(&self, which: usize) -> String {
        use crate::render::html::El;
        let chosen = self.policies.get(which).map_or("", String::as_str);
        let none = (which == 1).then(|| ("", "(none)".to_string()));
        let named = self
            .catalogue
            .iter()
            .map(|n| (n.as_str(), if n == MINE { "mine (your priority)".to_string() } else { n.clone() }));
        none.into_iter()
            .chain(named)
            .map(|(value, text)| {
                El::new("option").attr("value", value).flag("selected", value == chosen).text(text).to_string()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_has_an_input_per_field_and_a_remove_button_per_job() {
        let rows = [Row { submit: 0, runtime: 10, estimate: 20, procs: 2, user: 1 }];
        let html = rows_html(&rows);
        assert!(html.starts_with("<thead><tr><th>job</th><th>submit (s)</th>"));
        assert!(html.contains("<td>1</td><td><input type=\"number\" min=\"0\" value=\"0\" aria-label=\"job 1 submit\" data-row=\"0\" data-key=\"submit\"></td>"));
        assert!(html.contains("value=\"20\" aria-label=\"job 1 estimate\""));
        assert!(html.ends_with("data-remove=\"0\">Remove</button></td></tr></tbody>"));
    }

    use crate::explain::lesson::lessons;

    #[test]
    fn rows_go_to_swf_and_links_and_back() {
        let rows = parse_rows("0,10,10,2,1; 1,5,,2,2;;3,x,4");
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[1].estimate, 5, "a missing estimate is the runtime");
        assert_eq!((rows[2].runtime, rows[2].procs, rows[2].user), (0, 1, 1));
        let (back, machine) = rows_of_swf(&swf_of_rows(&rows, 4));
        assert_eq!((back, machine), (rows.clone(), 4));
        assert_eq!(parse_rows(&rows_param(&rows)), rows);
    }

    #[test]
    fn fig1_passes_part_and_say_so() {
        let ex = &crate::explain::examples::EXAMPLES[0];
        let both = lessons(ex.swf, &["fcfs".into(), "easy".into()], &[]).unwrap();
        let times = pass_times(&both);
        let first = pass(&both, 0);
        assert_eq!(first.count, times.len());
        assert_eq!(first.label, format!("pass 1 of {}: t={} s", times.len(), times[0]));
        // FCFS and EASY decide alike until job 4 is backfilled, and the note names that pass.
        let p = first.part.expect("fcfs and easy part on Fig. 1");
        assert!(first.same.as_deref().unwrap().contains(&format!("they part at pass {p}")));
        let at = pass(&both, p - 1);
        assert!(at.same.is_none());
        assert_ne!(at.panels[0].said, at.panels[1].said);
        // Past the last pass, the last one.
        assert_eq!(pass(&both, 999).index, times.len() - 1);
    }

    fn link(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn a_lesson_comes_from_its_link_and_goes_back_to_it() {
        let catalogue = ["fcfs".to_string(), "easy".to_string(), "conservative".to_string()];
        let first = View::from_link(&[], &catalogue);
        assert_eq!(first.example.map(|e| e.name), Some(crate::explain::examples::EXAMPLES[0].name));
        assert_eq!(
            first.link(&link(&[("view", "learn")])),
            link(&[("view", "learn"), ("example", "tsafrir-fig1"), ("policies", "fcfs,easy")])
        );
        let asked = link(&[
            ("view", "learn"),
            ("jobs", "0,3,3,4,1;1,4,4,6,3"),
            ("policies", "easy,nope,mine"),
            ("step", "2"),
            ("mine", "-procs"),
        ]);
        let mut own = View::from_link(&asked, &catalogue);
        assert_eq!(
            (own.rows.len(), own.machine, own.index),
            (2, 6, 2),
            "the machine is the widest job when the link has none"
        );
        assert_eq!(own.policies, ["easy", "mine"], "an unknown policy is left out");
        assert_eq!(own.specs(), ["easy", "custom:priority=-procs;k=1;name=mine"]);
        let back = own.link(&asked);
        assert_eq!(View::from_link(&back, &catalogue).rows, own.rows);
        assert!(
            back.contains(&("machine".to_string(), "6".to_string()))
                && back.contains(&("mine".to_string(), "-procs".to_string()))
        );
        // Edits: a field, a job added a second after the last, one removed; an example named shows it.
        assert!(own.edit(1, "runtime", 9) && !own.edit(5, "runtime", 9) && !own.edit(0, "colour", 1));
        own.add_row();
        assert_eq!(own.rows[2], Row { submit: 2, runtime: 9, estimate: 4, procs: 6, user: 3 });
        own.remove_row(0);
        assert_eq!(own.rows.len(), 2);
        own.load_example("kettimuthu-fig2", None);
        assert_eq!(own.example.map(|e| e.name), Some("kettimuthu-fig2"));
        assert!(own.examples_html().contains("data-example=\"kettimuthu-fig2\" aria-current=\"true\""));
        assert!(own.options_html(1).starts_with("<option value=\"\">(none)</option>"));
    }
}
