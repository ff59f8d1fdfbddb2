//! A study as the page shows it: a form of [`Field`]s, the runs its values ask for (a [`Plan`]),
//! and a [`Report`] of tables, charts and findings made from the runs' results.
//!
//! The page knows no study of its own: it draws the fields, runs the plan's tasks on its workers
//! ([`Study::run`], one task each, in any order), hands the results back in the plan's order to
//! [`Study::report`], and shows the report's [`Block`]s in order. A field marked `view` only
//! changes the report, so the page makes it again from the same results without running.

mod kettimuthu;
mod lawson;
mod leung;
mod load;
mod tsafrir;
mod ward;

pub use kettimuthu::Kettimuthu;
pub use lawson::Lawson;
pub use leung::Leung;
pub use load::LoadSweep;
pub use tsafrir::{prediction_presets, prediction_tables, predictor, Ran, Sweep, PREDICTOR_KEYS};
pub use ward::Ward;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::keys::normalize;
pub use crate::render::table::{Cell, Row, Table};
use crate::run::Settings;
use crate::studies::findings::Finding;
use crate::trace::Trace;

/// One input of a study's form.
#[derive(Debug, Clone, Serialize)]
pub struct Field {
    /// Its key in the options, and the end of its element's id (`<prefix>-<key>`).
    pub key: &'static str,
    /// Its parameter in a link to the page.
    pub url: &'static str,
    /// Its label.
    pub label: &'static str,
    /// What it means, on hover.
    pub title: &'static str,
    /// Its value when the link gives none.
    pub default: &'static str,
    /// An input's type when it has no choices: `text` or `date`; `note`: a line of text the
    /// study writes from the trace ([`Study::notes`]), not an input.
    pub input: &'static str,
    /// A select's values as (value, label), or the boxes to tick when `multiple`; empty: an input.
    pub choices: Vec<(String, String)>,
    /// A box to tick per choice; the value lists those ticked, separated by commas.
    pub multiple: bool,
    /// Characters wide, for a text input.
    pub size: u32,
    /// Changing it remakes the report from the same runs instead of running again.
    pub view: bool,
    /// A list separated by commas: shown with a space after each, in links without.
    pub list: bool,
    /// Rows of a box of lines, each its own parameter in a link (0: one line).
    pub lines: u32,
    /// Shown only while another field (key) has a value: (key, value).
    pub when: Option<(&'static str, &'static str)>,
}

impl Field {
    /// A text input.
    pub fn text(
        key: &'static str,
        url: &'static str,
        label: &'static str,
        default: &'static str,
        title: &'static str,
    ) -> Field {
        Field {
            key,
            url,
            label,
            title,
            default,
            input: "text",
            choices: Vec::new(),
            multiple: false,
            size: 14,
            view: false,
            list: false,
            lines: 0,
            when: None,
        }
    }

    /// A select of `choices` (value, label).
    pub fn choose(
        key: &'static str,
        url: &'static str,
        label: &'static str,
        default: &'static str,
        title: &'static str,
        choices: &[(&str, &str)],
    ) -> Field {
        let choices = choices.iter().map(|(v, l)| (v.to_string(), l.to_string())).collect();
        Field { choices, ..Field::text(key, url, label, default, title) }
    }

    /// The same field as boxes to tick, one per choice.
    pub fn multiple(mut self) -> Field {
        (self.multiple, self.list) = (true, true);
        self
    }

    /// A line of text in the form, written by [`Study::notes`] from the trace (the dates it spans).
    pub fn note(key: &'static str, title: &'static str) -> Field {
        Field { input: "note", ..Field::text(key, "", "", "", title) }
    }

    /// The same field as a date input.
    pub fn date(mut self) -> Field {
        self.input = "date";
        self
    }

    /// The same field changing only the report (see [`Field::view`]).
    pub fn view(mut self) -> Field {
        self.view = true;
        self
    }

    /// The same field as a list separated by commas.
    pub fn list(mut self) -> Field {
        self.list = true;
        self
    }

    /// The same field as a box of `rows` lines, each line its own parameter in a link.
    pub fn lines(mut self, rows: u32) -> Field {
        self.lines = rows;
        self
    }

    /// The same field, shown only while field `key` is `value`.
    pub fn when(mut self, key: &'static str, value: &'static str) -> Field {
        self.when = Some((key, value));
        self
    }

    /// The same field, `size` characters wide.
    pub fn size(mut self, size: u32) -> Field {
        self.size = size;
        self
    }
}

/// A line of a form naming what always runs: its label, then each item in bold with a hover text.
#[derive(Debug, Clone, Serialize)]
pub struct Fixed {
    /// The end of its element's id (`<prefix>-<key>`).
    pub key: &'static str,
    /// Its label.
    pub label: &'static str,
    /// The items as (text, hover text).
    pub items: Vec<(String, String)>,
}

/// A button setting some of a form's fields at once (the paper's own period).
#[derive(Debug, Clone, Serialize)]
pub struct Preset {
    /// The end of its button's id (`<prefix>-<key>`).
    pub key: &'static str,
    /// Its label.
    pub label: &'static str,
    /// What it sets, on hover.
    pub title: &'static str,
    /// The values it sets, by field key.
    pub values: Vec<(&'static str, &'static str)>,
}

/// The values of a form's fields by key, each the field's default when not given.
#[derive(Debug, Clone, Default)]
pub struct Options(Vec<(String, String)>);

impl Options {
    /// The options of `fields` from `KEY=VALUE` pairs (unknown keys are refused, naming them).
    pub fn parse(fields: &[Field], given: &[String]) -> Result<Options, String> {
        let mut out: Vec<(String, String)> =
            fields.iter().map(|f| (f.key.to_string(), f.default.to_string())).collect();
        for kv in given {
            let (k, v) = kv.split_once('=').ok_or_else(|| format!("{kv:?} is not KEY=VALUE"))?;
            let slot =
                out.iter_mut().find(|(key, _)| key == k.trim()).ok_or_else(|| format!("no field {:?}", k.trim()))?;
            slot.1 = v.trim().to_string();
        }
        Ok(Options(out))
    }

    /// The options of `study` from `KEY=VALUE` pairs, which must be right (for tests).
    #[cfg(test)]
    pub(crate) fn of(study: &dyn Study, given: &[&str]) -> Options {
        let given: Vec<String> = given.iter().map(|s| s.to_string()).collect();
        Options::parse(&study.fields(), &given).expect("test options")
    }

    /// The value of field `key` (empty when there is no such field).
    pub fn get(&self, key: &str) -> &str {
        self.0.iter().find(|(k, _)| k == key).map_or("", |(_, v)| v.as_str())
    }
}

/// One run of a plan: what the progress line calls it, its settings and its own input.
#[derive(Debug, Clone, Serialize)]
pub struct Task {
    /// A few words naming it (`ω=2 est`).
    pub what: String,
    /// The settings it runs with, as `KEY=VALUE`.
    pub settings: Vec<String>,
    /// What [`Study::run`] is told besides the settings.
    pub input: Value,
}

/// The runs a form's values ask for.
#[derive(Debug, Clone, Serialize)]
pub struct Plan {
    /// The form's line saying what will run (`10 runs: ω = 0, 1, 2, 4, inf, each with Est and Act`).
    pub what: String,
    /// The runs.
    pub tasks: Vec<Task>,
    /// The names the progress line counts in, singular and plural.
    pub noun: (&'static str, &'static str),
    /// The report is made again as each run finishes, from the runs finished so far (the
    /// others' values are null), rather than once at the end.
    pub progressive: bool,
}

/// A line of text followed by names in bold (`Saturate at 0.8 (keep up to 0.7): easy, fcfs`).
#[derive(Debug, Clone, Serialize)]
pub struct Line {
    /// What the line stands for, as `data-` attributes.
    pub data: Vec<(String, String)>,
    /// The text before the names.
    pub text: String,
    /// The names, each in bold with its name as `data-policy`.
    pub names: Vec<String>,
}

/// A paper's claim checked on the trace, as a run hands it to the report.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Claim {
    /// The claim.
    pub claim: String,
    /// Whether it holds; None when the trace cannot tell.
    pub holds: Option<bool>,
    /// The numbers behind the verdict.
    pub detail: String,
}

impl From<&Finding> for Claim {
    fn from(f: &Finding) -> Claim {
        Claim { claim: f.claim.into(), holds: f.holds, detail: f.detail.clone() }
    }
}

/// One part of a report, shown in order.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Block {
    /// A heading.
    Heading {
        /// Its text.
        text: String,
    },
    /// A paragraph explaining what follows.
    Note {
        /// Its element's id.
        id: String,
        /// Its text.
        text: String,
    },
    /// A table.
    Table(Table),
    /// A chart the engine draws.
    Figure {
        /// Its canvas's id.
        id: String,
        /// The class of the row it shares with the charts next to it (`wide`: one a row).
        #[serde(skip_serializing_if = "String::is_empty")]
        group: String,
        /// The stem of its exported files.
        name: String,
        /// What to draw.
        spec: Box<crate::render::generic::Spec>,
        /// Chart options besides the page's (`unix_start` for a time axis).
        #[serde(skip_serializing_if = "Value::is_null")]
        options: Value,
        /// Small charts it holds side by side (heatmap panels, 180 px wide at least): its
        /// canvas grows to hold their rows (0: a chart of the usual height).
        panels: usize,
    },
    /// A chart's place, saying why there is no chart there.
    Empty {
        /// The id its canvas would have.
        id: String,
        /// The class of the row it shares with the charts next to it.
        #[serde(skip_serializing_if = "String::is_empty")]
        group: String,
        /// Why.
        text: String,
    },
    /// Lines of text naming policies.
    Lines {
        /// Its list's id.
        id: String,
        /// The lines.
        lines: Vec<Line>,
    },
    /// A paper's claims checked on the trace.
    Findings {
        /// Its list's id.
        id: String,
        /// The claims.
        findings: Vec<Claim>,
    },
}

impl Block {
    /// A chart on its own row.
    pub fn figure(id: &str, name: &str, spec: crate::render::generic::Spec) -> Block {
        Block::Figure {
            id: id.into(),
            group: String::new(),
            name: name.into(),
            spec: Box::new(spec),
            options: Value::Null,
            panels: 0,
        }
    }

    /// The same chart drawn with these options besides the page's.
    pub fn with_options(mut self, more: Value) -> Block {
        if let Block::Figure { options, .. } = &mut self {
            *options = more;
        }
        self
    }

    /// The same chart (or empty place) in a row of class `class` with the charts next to it of that class.
    pub fn in_group(mut self, class: &str) -> Block {
        if let Block::Figure { group, .. } | Block::Empty { group, .. } = &mut self {
            *group = class.into();
        }
        self
    }

    /// The same chart holding `n` small panels side by side.
    pub fn with_panels(mut self, n: usize) -> Block {
        if let Block::Figure { panels, .. } = &mut self {
            *panels = n;
        }
        self
    }

    /// The place of chart `id` with the reason it is empty.
    pub fn empty(id: &str, text: impl Into<String>) -> Block {
        Block::Empty { id: id.into(), group: String::new(), text: text.into() }
    }
}

/// A study's report: its blocks, and the status line once it is shown.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// What ran, for the status line; `{time}` stands for the time the runs took.
    pub status: String,
    /// What to show, in order.
    pub blocks: Vec<Block>,
}

impl Report {
    /// The report as the page puts it in place: `{"status", "html", "figures"}`, the blocks as
    /// HTML in order (consecutive charts of one group sharing a row, each on its canvas) and the
    /// charts to draw there (`{"id", "name", "spec", "options", "panels"}`).
    pub fn page(&self) -> Value {
        use crate::render::html::El;
        let mut out = String::new();
        let mut figures: Vec<Value> = Vec::new();
        let mut row: Option<(String, El)> = None; // the row of charts being filled, with its group
        for b in &self.blocks {
            let (group, figure) = match b {
                Block::Figure { id, group, name, spec, options, panels } => {
                    let options = if options.is_null() { serde_json::json!({}) } else { options.clone() };
                    figures.push(
                        serde_json::json!({"id": id, "name": name, "spec": spec, "options": options, "panels": panels}),
                    );
                    (group, El::new("div").attr("class", "figure").kid(El::new("canvas").attr("id", id)))
                }
                Block::Empty { id, group, text } => {
                    let empty = El::new("p").attr("class", "empty note").text(text);
                    (
                        group,
                        El::new("div")
                            .attr("class", "figure")
                            .kid(empty)
                            .kid(El::new("canvas").attr("id", id).flag("hidden", true)),
                    )
                }
                _ => {
                    if let Some((_, r)) = row.take() {
                        out.push_str(&r.to_string());
                    }
                    out.push_str(&block_html(b));
                    continue;
                }
            };
            match &mut row {
                Some((g, r)) if g == group => *r = std::mem::replace(r, El::new("div")).kid(figure),
                _ => {
                    if let Some((_, r)) = row.take() {
                        out.push_str(&r.to_string());
                    }
                    let class = format!("charts {group}");
                    row = Some((group.clone(), El::new("div").attr("class", class.trim()).kid(figure)));
                }
            }
        }
        if let Some((_, r)) = row {
            out.push_str(&r.to_string());
        }
        serde_json::json!({"status": self.status, "html": out, "figures": figures})
    }
}

/// A study's form as the page shows it, its values from the link's `link` parameters:
/// `{"prefix", "fields", "html", "set"}`, `set` naming the fields the link gives (they no longer
/// follow the trace). Each control has the id `<prefix>-<key>` and `data-key`; presets are
/// buttons whose `data-values` hold the values they set as JSON pairs; then Run, Cancel,
/// the plan's line, the progress line and the report's box.
pub fn form_page<S: Study + ?Sized>(st: &S, link: &[(String, String)]) -> Value {
    use crate::render::html::{button, El};
    let prefix = st.prefix();
    let fields = st.fields();
    let id = |key: &str| format!("{prefix}-{key}");
    let mut set: Vec<&str> = Vec::new();
    let mut form = El::new("div").attr("id", id("form")).attr("class", "controls");
    if let Some(fixed) = st.fixed() {
        let items = fixed.items.iter().map(|(text, title)| El::new("b").attr("title", title).text(text));
        form =
            form.kid(El::new("span").attr("id", id(fixed.key)).text(format!("{} ", fixed.label)).joined(items, ", "));
    }
    for f in &fields {
        if f.input == "note" {
            // Written from the trace by the plan (its notes).
            form = form.kid(El::new("span").attr("id", id(f.key)).attr("class", "note").attr("title", f.title));
            continue;
        }
        // A box of lines takes a parameter per line.
        let given: Vec<&str> = link.iter().filter(|(k, _)| k == f.url).map(|(_, v)| v.as_str()).collect();
        let given = if f.lines > 0 {
            Some(given.join("\n")).filter(|v| !v.is_empty())
        } else {
            given.first().map(|v| v.to_string())
        };
        if given.is_some() {
            set.push(f.key);
        }
        let value = match &given {
            None => f.default.to_string(),
            Some(v) if f.list => v.split(',').map(str::trim).collect::<Vec<_>>().join(", "),
            Some(v) => v.clone(),
        };
        let control = if f.multiple {
            // A box per choice, and one per other value the link gives; the value lists those ticked.
            let canon = |v: &str| plain_number(v).map_or_else(|| v.trim().to_string(), |n| n.to_string());
            let on: Vec<String> = value.split(',').map(canon).filter(|v| !v.is_empty()).collect();
            let mut choices = f.choices.clone();
            choices
                .extend(on.iter().filter(|v| !f.choices.iter().any(|(c, _)| c == *v)).map(|v| (v.clone(), v.clone())));
            let boxes = choices.iter().map(|(v, label)| {
                let tick = El::new("input").attr("type", "checkbox").attr("value", v).flag("checked", on.contains(v));
                El::new("label").kid(tick).text(format!(" {label}"))
            });
            form = form.kid(
                El::new("span")
                    .attr("id", id(f.key))
                    .attr("title", f.title)
                    .attr("data-key", f.key)
                    .text(format!("{} ", f.label))
                    .kids(boxes),
            );
            continue;
        } else if !f.choices.is_empty() {
            let chosen = if f.choices.iter().any(|(v, _)| *v == value) { value.as_str() } else { f.default };
            El::new("select").kids(
                f.choices
                    .iter()
                    .map(|(v, label)| El::new("option").attr("value", v).flag("selected", v == chosen).text(label)),
            )
        } else if f.lines > 0 {
            let area =
                El::new("textarea").attr("rows", f.lines.to_string()).attr("cols", "28").attr("spellcheck", "false");
            area.text(&value)
        } else {
            let input = El::new("input").attr("type", f.input).attr("value", &value).attr("size", f.size.to_string());
            input.attr("spellcheck", "false").attr("autocomplete", "off")
        };
        let control = control.attr("id", id(f.key)).attr("title", f.title).attr("data-key", f.key);
        form = form.kid(
            El::new("label").attr("id", id(&format!("{}-label", f.key))).text(format!("{} ", f.label)).kid(control),
        );
    }
    for p in st.presets() {
        let values = serde_json::to_string(&p.values).unwrap_or_default();
        let b = button(p.label).attr("id", id(p.key)).attr("title", p.title).attr("data-values", values);
        form = form.kid(b).text(" ");
    }
    let plain = |key: &str, text: &str| El::new("button").attr("type", "button").attr("id", id(key)).text(text);
    form = form
        .kid(plain("run", "Run"))
        .text(" ")
        .kid(plain("cancel", "Cancel"))
        .text(" ")
        .kid(El::new("span").attr("id", id("count")));
    let progress = El::new("progress").attr("id", id("progress")).attr("value", "0").attr("max", "1");
    let line =
        El::new("p").kid(progress).text(" ").kid(El::new("span").attr("id", id("status")).attr("role", "status"));
    let html = format!("{form}{line}{}", El::new("div").attr("id", id("report")));
    serde_json::json!({"prefix": prefix, "fields": fields, "html": html, "set": set})
}

/// A field's value as the engine and links take it: a list's items without the spaces after
/// commas, a box's lines trimmed, else trimmed.
fn field_value(f: &Field, raw: &str) -> String {
    let (sep, parts): (&str, Vec<&str>) = if f.list {
        (",", raw.split(',').collect())
    } else if f.lines > 0 {
        ("\n", raw.lines().collect())
    } else {
        return raw.trim().to_string();
    };
    parts.into_iter().map(str::trim).filter(|p| !p.is_empty()).collect::<Vec<_>>().join(sep)
}

/// What a study's form holds, read from its controls' values.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct FormValues {
    /// Each field's value as `KEY=VALUE`, in the fields' order (the study's options).
    pub options: Vec<String>,
    /// Controls (by id) to show another value: a field not set by the link or the user follows
    /// the trace, taking the value the study gives it there.
    pub fill: Vec<(String, String)>,
    /// Labels (by id) shown only while another field has a value: whether each is hidden now.
    pub hidden: Vec<(String, bool)>,
    /// The study in a link: each field's parameter with its values (a box of lines gives one
    /// per line), none when the field is at its default.
    pub url: Vec<(String, Option<Vec<String>>)>,
}

/// The form's values from its controls' `form` (key, value) pairs (a box of choices gives those
/// ticked, separated by commas) on the trace of `about`; the fields in `set` no longer follow it.
pub fn form_values<S: Study + ?Sized>(st: &S, form: &[(String, String)], set: &[String], about: &Value) -> FormValues {
    let prefix = st.prefix();
    let defaults = st.defaults(about);
    let trace_default = |key: &str| defaults.iter().find(|(k, _)| *k == key).map(|(_, v)| v.as_str());
    let mut out = FormValues::default();
    let mut values: Vec<(&str, String)> = Vec::new();
    for f in st.fields().iter().filter(|f| f.input != "note") {
        let raw = form.iter().find(|(k, _)| k == f.key).map_or(f.default, |(_, v)| v.as_str());
        let raw = match trace_default(f.key) {
            Some(v) if !set.iter().any(|k| k == f.key) && v != raw => {
                out.fill.push((format!("{prefix}-{}", f.key), v.to_string()));
                v
            }
            _ => raw,
        };
        let value = field_value(f, raw);
        let default = field_value(f, trace_default(f.key).unwrap_or(f.default));
        let link = if f.lines > 0 { value.lines().map(String::from).collect() } else { vec![value.clone()] };
        out.url.push((f.url.to_string(), (value != default).then_some(link)));
        out.options.push(format!("{}={value}", f.key));
        values.push((f.key, value));
    }
    for f in st.fields().iter().filter(|f| f.when.is_some()) {
        let (key, wanted) = f.when.unwrap_or_default();
        let hidden = values.iter().find(|(k, _)| *k == key).is_none_or(|(_, v)| v != wanted);
        out.hidden.push((format!("{prefix}-{}-label", f.key), hidden));
    }
    out
}

/// The options a report is made with: the view fields' values `now`, the others' as they `ran`.
pub fn report_options<S: Study + ?Sized>(st: &S, ran: &[String], now: &[String]) -> Vec<String> {
    let fields = st.fields();
    let inputs = fields.iter().filter(|f| f.input != "note");
    inputs.zip(ran.iter().zip(now)).map(|(f, (r, n))| if f.view { n.clone() } else { r.clone() }).collect()
}

/// A block that is not a chart, as HTML.
fn block_html(b: &Block) -> String {
    use crate::render::html::{self, El};
    match b {
        Block::Heading { text } => El::new("h3").text(text).to_string(),
        Block::Note { id, text } => El::new("p").some("id", id).attr("class", "note").text(text).to_string(),
        Block::Table(t) => format!("<div class=\"scroll\">{}</div>", html::table(t)),
        Block::Lines { id, lines } => El::new("ul")
            .some("id", id)
            .kids(lines.iter().map(|l| {
                let names = l.names.iter().map(|n| El::new("b").attr("data-policy", n).text(n));
                El::new("li").data(&l.data).text(&l.text).joined(names, ", ")
            }))
            .to_string(),
        Block::Findings { id, findings } => findings_html(id, findings),
        Block::Figure { .. } | Block::Empty { .. } => String::new(),
    }
}

/// A paper's claims checked on the trace: each with its verdict in the command line's words.
pub fn findings_html(id: &str, findings: &[Claim]) -> String {
    use crate::render::html::El;
    let items = findings.iter().map(|f| {
        let (class, verdict) = match f.holds {
            Some(true) => ("done", "holds"),
            Some(false) => ("error", "CONTRADICTED"),
            None => ("na", "n/a"),
        };
        let holds = f.holds.map_or("null", |h| if h { "true" } else { "false" });
        El::new("li")
            .attr("data-holds", holds)
            .kid(El::new("b").attr("class", class).text(verdict))
            .kid(El::new("span").attr("class", "claim").text(format!(" {}", f.claim)))
            .kid(El::new("div").attr("class", "note detail").text(&f.detail))
    });
    El::new("ul").some("id", id).attr("class", "findings").kids(items).to_string()
}

/// A paper's study, as the page runs it.
pub trait Study: Sync {
    /// The start of its elements' ids and of its task tags (`ward`).
    fn prefix(&self) -> &'static str;
    /// Its form.
    fn fields(&self) -> Vec<Field>;
    /// What always runs, named in the form (the schemes compared).
    fn fixed(&self) -> Option<Fixed> {
        None
    }
    /// Buttons that set several fields at once.
    fn presets(&self) -> Vec<Preset> {
        Vec::new()
    }
    /// The values some fields take on the trace of `about` unless the link or the user sets them.
    fn defaults(&self, _about: &Value) -> Vec<(&'static str, String)> {
        Vec::new()
    }
    /// The texts of its [`Field::note`]s on the trace of `about` (none before a trace is read).
    fn notes(&self, _about: &Value) -> Vec<(&'static str, String)> {
        Vec::new()
    }
    /// The runs the options ask for with the page's `settings`, or what is wrong with a field;
    /// `about` is what the page knows of the trace (`{"report", "header"}`, as `inspect` gives).
    fn plan(&self, options: &Options, settings: &[String], about: &Value) -> Result<Plan, String>;
    /// One task of the plan on the trace, as a value [`Study::report`] reads back.
    fn run(&self, trace: &Trace, settings: &Settings, input: &Value) -> Result<Value, String>;
    /// The report of the runs' `values`, in the plan's order, on the trace of `about`.
    fn report(&self, options: &Options, values: &[Value], about: &Value) -> Result<Report, String>;
}

/// `$body` with `$st` bound to the study called `$name`, or an error naming it: dispatched by a
/// match rather than a trait object, since the page's wasm keeps whatever a vtable reaches, even
/// in its smaller build that shows no study. The studies are named once, in the first rule.
#[macro_export]
macro_rules! with_study {
    ($name:expr, |$st:ident| $body:expr) => {
        $crate::with_study!(@ $name, $st, $body;
            "sweep" => Sweep, "loadsweep" => LoadSweep, "ward" => Ward, "lawson" => Lawson, "kettimuthu" => Kettimuthu, "leung" => Leung)
    };
    (@ $name:expr, $st:ident, $body:expr; $($n:literal => $t:ident),*) => {
        match $name {
            $($n => {
                // A body may call the study's methods, or only hand it to a generic function.
                #[allow(unused_imports)]
                use $crate::studies::panel::Study as _;
                let $st = &$crate::studies::panel::$t;
                $body
            })*
            other => Err(format!("no study {other:?}")),
        }
    };
}

/// Reads back a value [`Study::run`] made.
pub(crate) fn read<T: serde::de::DeserializeOwned>(value: &Value) -> Result<T, String> {
    T::deserialize(value).map_err(|e| format!("a run's result could not be read: {e}"))
}

/// The page's settings less those of `keys` (which a study sets itself or leaves to its runs).
pub(crate) fn without(settings: &[String], keys: &[&str]) -> Vec<String> {
    let key = |kv: &str| normalize(kv.split('=').next().unwrap_or(""));
    settings.iter().filter(|kv| !keys.contains(&key(kv).as_str())).cloned().collect()
}

/// A number as the forms take one: decimal digits with at most one point (no sign, no exponent).
pub(crate) fn plain_number(s: &str) -> Option<f64> {
    let s = s.trim();
    let ok = s.chars().any(|c| c.is_ascii_digit())
        && s.chars().all(|c| c.is_ascii_digit() || c == '.')
        && s.matches('.').count() <= 1;
    if ok {
        s.parse().ok()
    } else {
        None
    }
}

/// The `load` among the page's trace options (1 without one), which scales a study's own load
/// factors as the command line's studies scale theirs.
pub(crate) fn shared_load(settings: &[String]) -> f64 {
    settings
        .iter()
        .filter_map(|kv| kv.split_once('='))
        .filter(|(k, _)| normalize(k) == "load")
        .filter_map(|(_, v)| plain_number(v).filter(|v| *v > 0.0))
        .next_back()
        .unwrap_or(1.0)
}

/// The page's settings less the keys a study sets itself, then the study's own.
pub(crate) fn with_own(settings: &[String], own: &[(&str, String)]) -> Vec<String> {
    let keys: Vec<&str> = own.iter().map(|(k, _)| *k).collect();
    let mut out = without(settings, &keys);
    out.extend(own.iter().map(|(k, v)| format!("{k}={v}")));
    out
}

#[cfg(test)]
mod page_tests {
    use super::*;
    use crate::render::generic::Spec;

    #[test]
    fn a_report_is_written_in_order_with_consecutive_charts_of_a_group_in_one_row() {
        let spec = Spec::Bars { labels: Default::default(), bars: Vec::new() };
        let report = Report {
            status: "ran".into(),
            blocks: vec![
                Block::Heading { text: "A <b>".into() },
                Block::figure("c1", "one", spec.clone()).in_group("half"),
                Block::empty("c2", "no runs").in_group("half"),
                Block::figure("c3", "three", spec).with_options(serde_json::json!({"unix_start": 5})),
                Block::Findings {
                    id: "f".into(),
                    findings: vec![Claim { claim: "EASY wins".into(), holds: Some(false), detail: "by 3%".into() }],
                },
                Block::Lines {
                    id: "l".into(),
                    lines: vec![Line {
                        data: vec![("load".into(), "0.8".into())],
                        text: "Saturate: ".into(),
                        names: vec!["easy".into(), "fcfs".into()],
                    }],
                },
            ],
        };
        let page = report.page();
        let html = page["html"].as_str().unwrap_or_default();
        assert_eq!(
            html,
            "<h3>A &lt;b&gt;</h3>\
             <div class=\"charts half\"><div class=\"figure\"><canvas id=\"c1\"></canvas></div>\
             <div class=\"figure\"><p class=\"empty note\">no runs</p><canvas id=\"c2\" hidden></canvas></div></div>\
             <div class=\"charts\"><div class=\"figure\"><canvas id=\"c3\"></canvas></div></div>\
             <ul id=\"f\" class=\"findings\"><li data-holds=\"false\"><b class=\"error\">CONTRADICTED</b>\
             <span class=\"claim\"> EASY wins</span><div class=\"note detail\">by 3%</div></li></ul>\
             <ul id=\"l\"><li data-load=\"0.8\">Saturate: <b data-policy=\"easy\">easy</b>, <b data-policy=\"fcfs\">fcfs</b></li></ul>"
        );
        let figures = page["figures"].as_array().cloned().unwrap_or_default();
        assert_eq!(figures.iter().map(|f| f["id"].as_str().unwrap_or("")).collect::<Vec<_>>(), ["c1", "c3"]);
        assert_eq!(figures[0]["options"], serde_json::json!({}));
        assert_eq!(figures[1]["options"]["unix_start"], 5);
    }
}
